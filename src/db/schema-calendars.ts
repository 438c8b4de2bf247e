/** The tables of calendar apps (contract "Calendar apps: CalDAV and feeds"), apart so schema.ts stays one screenful of tables. */

/** A calendar app's copy of an item: its file name, the client's UID, the last iCalendar text (src/modules/caldav). */
export interface CaldavObjectsTable {
  user_id: string;
  item_id: string;
  name: string;
  uid: string;
  ics: string;
  parent_uid: string | null;
  updated_at: string;
}

/** A project served at a URL segment a client chose with MKCALENDAR (src/modules/caldav). */
export interface CaldavCollectionsTable {
  user_id: string;
  project_id: string;
  name: string;
}

/** A subscribable calendar feed (src/modules/feeds); exactly one of project_id, filter_id or neither (all). */
export interface FeedsTable {
  id: string;
  user_id: string;
  secret: string;
  project_id: string | null;
  filter_id: string | null;
  as_kind: 'todos' | 'events';
  created_at: string;
  updated_at: string;
}
