import type { Kysely } from 'kysely';

/*
 * Calendar apps (issue 49). Kept beside the items, not in them, so only the caldav and feeds
 * modules write these tables and the items kernel stays as it is:
 * - `caldav_objects`: per item a calendar app has seen or sent, the object's file name in its
 *   collection (a client's PUT stays at the URL it chose), the client's UID, and the last
 *   iCalendar text, which a GET overlays with the item's mapped fields so nothing the service does
 *   not map is lost; `parent_uid` is a RELATED-TO parent not seen yet (children may come before
 *   their parent), linked when the parent arrives. A deleted item's row stays (no foreign key to
 *   items): sync-collection names its file in the 404 it reports, and a new PUT of the UID reuses
 *   it. Rows go with the user.
 * - `caldav_collections`: the URL segment of a project made by MKCALENDAR at a URL of the client's
 *   choosing; other projects are served at their id. It goes with the project.
 * - `feeds`: subscribable .ics URLs. `secret` is the URL's secret, kept in clear like the email-in
 *   token so the list can show the URL again; rotating replaces it, so the old URL stops at once.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('caldav_objects')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('ics', 'text', (c) => c.notNull())
    .addColumn('parent_uid', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('caldav_objects_pk', ['user_id', 'item_id'])
    .addUniqueConstraint('caldav_objects_uid_uq', ['user_id', 'uid'])
    .execute();
  await db.schema.createIndex('caldav_objects_name_idx').on('caldav_objects').columns(['user_id', 'name']).execute();

  await db.schema
    .createTable('caldav_collections')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('caldav_collections_pk', ['user_id', 'project_id'])
    .addUniqueConstraint('caldav_collections_name_uq', ['user_id', 'name'])
    .addForeignKeyConstraint('caldav_collections_project_fk', ['user_id', 'project_id'], 'projects', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('feeds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull().unique())
    .addColumn('project_id', 'text')
    .addColumn('filter_id', 'text')
    .addColumn('as_kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feeds_user_idx').on('feeds').columns(['user_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('feeds').execute();
  await db.schema.dropTable('caldav_collections').execute();
  await db.schema.dropTable('caldav_objects').execute();
}
