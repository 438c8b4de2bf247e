import type { AttachmentBlobsTable, AttachmentsTable } from './schema-attachments.js';
import type { CaldavCollectionsTable, CaldavObjectsTable, FeedsTable } from './schema-calendars.js';
import type {
  EmailInLeaseTable,
  EmailInTokensTable,
  InstanceSettingsTable,
  LiveProcessesTable,
  LiveStreamsTable,
  ItemCompletionsTable,
  OrganizerFilingsTable,
  OrganizerModelsTable,
  ReminderFiresTable,
  SavedFiltersTable,
  UndoActionsTable,
} from './schema-services.js';
import type { ColumnType, Kysely, Transaction } from 'kysely';

/** Booleans are written as 0/1, which both SQLite and PostgreSQL accept; reads come back as either. */
export type Bool = ColumnType<boolean | number, number, number>;
export type Plan = 'free' | 'pro';
export type ItemType = 'note' | 'todo';
export type ItemStatus = 'backlog' | 'todo' | 'doing' | 'done' | 'archived';

export interface UsersTable {
  id: string;
  email: string;
  email_key: string;
  plan: Plan;
  timezone: string;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  /** SQLite only: the user's range of search keys (src/modules/search/search-index.sqlite.ts); set by a trigger. */
  search_slot: ColumnType<number, never, never>;
  /** SQLite only: an insert broke the order of the user's search keys (search-index.sqlite.ts); set by a trigger. */
  search_unordered: ColumnType<number, never, number>;
  /** Minutes before due_at that a reminder is set by default, or null (contract "Reminders"). */
  reminder_default: number | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  label: string;
  prefix: string;
  secret_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Comma list in canonical order (src/modules/keys/scopes.ts). */
  scopes: string;
  /** After this instant the key answers 401 like a revoked one; null: never expires. */
  expires_at: string | null;
}

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  is_default: Bool;
  created_at: string;
  updated_at: string;
  /** Kept by triggers on items (migration 2026-11-30-1100, decision 0096): every item, and the open ones. */
  item_count: ColumnType<number, never, never>;
  open_count: ColumnType<number, never, never>;
}

/** PostgreSQL's kept-count changes not yet folded into their project's row (decision 0096); SQLite's triggers write the row itself. */
export interface ProjectCountDeltasTable {
  user_id: string;
  project_id: string;
  item_delta: number;
  open_delta: number;
}

export interface ItemsTable {
  id: string;
  user_id: string;
  project_id: string;
  parent_id: string | null;
  type: ItemType;
  title: string | null;
  content_md: string | null;
  is_completed: Bool;
  status: ItemStatus;
  status_before_archive: ItemStatus | null;
  due_at: string | null;
  archived_at: string | null;
  client_id: string | null;
  created_at: string;
  updated_at: string;
  /** An RRULE of the contract's subset, or null; recurrence_from is `due` or `completion` when it is set. */
  recurrence_rule: string | null;
  recurrence_from: 'due' | 'completion' | null;
  remind_at: string | null;
  /**
   * The item is due on a day, not at a time (contract "All-day dates"): due_at is 00:00 of that day
   * in the user's zone. SQLite stores it as 0/1; it defaults to false, so a new row may leave it out.
   */
  all_day: ColumnType<boolean | number, number | undefined, number>;
  /** SQLite only: the item's FTS rowid (see the search-key-counter migration); written at insert. */
  search_key: ColumnType<number | null, number | undefined, never>;
  /**
   * title and content_md as the search index reads them, with spaces at the word breaks of Chinese,
   * Japanese and other unspaced scripts; null for text without them (see word-breaks.ts).
   */
  search_text: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The item's attachments as its responses show them (a JSON array, oldest first), kept by the
   * attachments module in the transaction that changes them (decision 0084). Defaults to `[]`.
   */
  attachments_json: ColumnType<string, string | undefined, string>;
  /** The API key that captured the item (null: the web, an import, or before attachments). */
  captured_by_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TagsTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  created_at: string;
  /** Links to items, kept by triggers (migration 2026-11-30-1400); on PostgreSQL, plus tag_count_deltas not folded yet. */
  item_count: ColumnType<number, never, never>;
}

/** PostgreSQL's pending changes to tags.item_count (migration 2026-11-30-1400); SQLite's stays empty. */
export interface TagCountDeltasTable {
  user_id: string;
  tag_id: string;
  item_delta: number;
}

export interface ItemTagsTable {
  user_id: string;
  item_id: string;
  tag_id: string;
}

export interface OutboxEventsTable {
  id: string;
  user_id: string;
  event: string;
  item_id: string;
  payload: string;
  created_at: string;
  /**
   * The event's place in the change feed is (txid, seq): the writing transaction's id on
   * PostgreSQL (0 on SQLite), then the insert order. PostgreSQL returns bigint as a string.
   */
  txid: ColumnType<number | string, never, never>;
  seq: ColumnType<number | string, number | undefined, never>;
  /**
   * Null while the delivery worker still has to fan the event out to the user's webhooks. Set at
   * insert already when the user has none, so such events are never written again.
   */
  dispatched_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** SQLite only: the last `seq` given to an outbox event. */
export interface OutboxSequenceTable {
  id: number;
  n: ColumnType<number | string, number, number | string>;
}

/** The kept answer of a POST sent with an Idempotency-Key. */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  fingerprint: string;
  /** Null while the first request runs. */
  status: number | null;
  /** JSON object of the kept response headers. */
  headers: string | null;
  body: string | null;
  lease_until: string;
  created_at: string;
  expires_at: string;
}

export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  description: string | null;
  /**
   * Sealed (AES-256-GCM, src/lib/secret-box.ts) under `webhook:<user>:<id>`: a webhook's signing key
   * (the SHA-256 hex of its secret), or a channel's secrets as JSON (push keys, an ntfy token).
   */
  sealed_secret: string;
  created_at: string;
  last_failure_status: number | null;
  last_failure_reason: string | null;
  last_failure_at: string | null;
  /** `webhook`, or the kind of a notification channel (decision 0041). */
  kind: WebhookKind;
  /** A channel's public part as JSON (null for webhooks). */
  target: string | null;
}

export type WebhookKind = 'webhook' | 'webpush' | 'ntfy' | 'email';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  user_id: string;
  webhook_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  round_attempts: number;
  last_status: number | null;
  last_failure_reason: string | null;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  last_attempt_at: string | null;
}

/** A web sign-in; `id` is the SHA-256 of the cookie's token. */
export interface WebSessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** The last request that used the session (to a minute), for the idle timeout; null: created_at. */
  last_seen_at: string | null;
}

/** A browser pairing request; `state_hash` is the SHA-256 of the client's state. */
export interface PairingsTable {
  state_hash: string;
  label: string;
  created_at: string;
  expires_at: string;
  user_id: string | null;
  approved_at: string | null;
  denied_at: string | null;
  exchanged_at: string | null;
  key_id: string | null;
  /** Asked for at start; scopes narrowed to what the user granted at approval; key_expires_in_days null: never. */
  scopes: string;
  key_expires_in_days: number | null;
}

export interface DatabaseSchema {
  users: UsersTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  project_count_deltas: ProjectCountDeltasTable;
  items: ItemsTable;
  tags: TagsTable;
  tag_count_deltas: TagCountDeltasTable;
  item_tags: ItemTagsTable;
  outbox_events: OutboxEventsTable;
  outbox_sequence: OutboxSequenceTable;
  idempotency_keys: IdempotencyKeysTable;
  web_sessions: WebSessionsTable;
  pairings: PairingsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  instance_settings: InstanceSettingsTable;
  organizer_models: OrganizerModelsTable;
  organizer_filings: OrganizerFilingsTable;
  item_completions: ItemCompletionsTable;
  undo_actions: UndoActionsTable;
  reminder_fires: ReminderFiresTable;
  email_in_tokens: EmailInTokensTable;
  email_in_lease: EmailInLeaseTable;
  live_processes: LiveProcessesTable;
  live_streams: LiveStreamsTable;
  saved_filters: SavedFiltersTable;
  caldav_objects: CaldavObjectsTable;
  caldav_collections: CaldavCollectionsTable;
  feeds: FeedsTable;
  attachments: AttachmentsTable;
  attachment_blobs: AttachmentBlobsTable;
}

/**
 * The database. The rule every `db.transaction()` keeps: await nothing inside it but its own
 * statements, never the network. On SQLite every write of the process shares one transaction
 * (group commit, decisions/0003), so one transaction that waits on a network call stalls every
 * write; on PostgreSQL it holds a pooled connection and its row locks. In development and tests a
 * SQLite transaction that holds the writer past a threshold is reported with its stack (HoldWatch).
 */
export type * from './schema-attachments.js';
export type * from './schema-calendars.js';
export type * from './schema-services.js';

export type Db = Kysely<DatabaseSchema>;
/** Repositories take either; services decide where transactions begin. */
export type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;
