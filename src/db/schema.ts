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
}

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  is_default: Bool;
  created_at: string;
  updated_at: string;
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
}

export interface TagsTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  created_at: string;
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
}

/** A web sign-in; `id` is the SHA-256 of the cookie's token. */
export interface WebSessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
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
}

export interface DatabaseSchema {
  users: UsersTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  items: ItemsTable;
  tags: TagsTable;
  item_tags: ItemTagsTable;
  outbox_events: OutboxEventsTable;
  web_sessions: WebSessionsTable;
  pairings: PairingsTable;
}

export type Db = Kysely<DatabaseSchema>;
/** Repositories take either; services decide where transactions begin. */
export type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;
