/** The tables of the services around items: instance settings, organizer models, email-in, live streams, saved filters, completions, undo, reminder fires. */

/** A server-wide setting the owner changed (admin page); absent means its default. */
export interface InstanceSettingsTable {
  name: string;
  value: string;
  updated_at: string;
}

/** A user's learned organizer routing model (src/modules/organizer/learning/), JSON. */
export interface OrganizerModelsTable {
  user_id: string;
  model: string;
  /** A random token written with each model: what a process compares to know its parsed copy is current (decision 0114). */
  revision: string;
  updated_at: string;
}

/** The organizer's filings the user has not confirmed yet (decision 0114): learned once kept a day. */
export interface OrganizerFilingsTable {
  user_id: string;
  item_id: string;
  project_id: string;
  filed_at: string;
}

/** A user's secret email-in token (src/modules/email-in/). */
export interface EmailInTokensTable {
  user_id: string;
  token: string;
  created_at: string;
}

/** Who reads the email-in mailbox, and until when (src/modules/email-in/reader-lease.repository.ts). */
export interface EmailInLeaseTable {
  name: string;
  owner: string;
  lease_until: string;
}

/** A serving process with open change streams (src/modules/live/stream-registry.ts). */
export interface LiveProcessesTable {
  id: string;
  seen_at: string;
}

/** One open change stream, counted against its user's cap in every process. */
export interface LiveStreamsTable {
  id: string;
  user_id: string;
  process_id: string;
  opened_at: string;
}

/** A user's saved filter (contract "Filters and saved views"): `query` as typed, parsed at each use. */
export interface SavedFiltersTable {
  id: string;
  user_id: string;
  name: string;
  query: string;
  /** Null or `#rrggbb`. */
  color: string | null;
  /** The user's order, 0 first. */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface ItemCompletionsTable {
  id: string;
  user_id: string;
  item_id: string;
  due_at: string | null;
  completed_at: string;
}

/** The inverse of an action in place, kept until used or expired (modules/undo, decision 0076). */
export interface UndoActionsTable {
  id: string;
  user_id: string;
  item_id: string;
  item_etag: string;
  inverse: string;
  created_at: string;
  expires_at: string;
}

export interface ReminderFiresTable {
  id: string;
  user_id: string;
  item_id: string;
  remind_at: string;
  status: 'fired' | 'missed';
  event_id: string | null;
  created_at: string;
}
