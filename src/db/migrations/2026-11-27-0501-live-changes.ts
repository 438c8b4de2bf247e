import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * Live changes (issue 32): on PostgreSQL, a committed change of the feed wakes the open streams of
 * its user in every process through LISTEN/NOTIFY. The triggers notify the channel `cin_changes`
 * with `u:<user id>` for each outbox event and `k:<key id>` for a key that is revoked or deleted;
 * PostgreSQL delivers a notification only when its transaction commits, and once per distinct
 * payload of a transaction. The payload says only "read the feed": the feed stays the data source.
 *
 * SQLite has no notifications across connections: each server process installs TEMP triggers of
 * the same shape on its own writer connection (src/modules/live/sqlite-commit-wakeups.ts), so this
 * migration has nothing to do there.
 */
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: AnyDb): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create function cin_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cin_changes', 'u:' || new.user_id);
      return null;
    end $$`.execute(db);
  await sql`create trigger outbox_events_notify after insert on outbox_events for each row execute function cin_notify_change()`.execute(db);
  await sql`create function cin_notify_key_gone() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cin_changes', 'k:' || old.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger api_keys_revoked_notify after update of revoked_at on api_keys
    for each row when (new.revoked_at is not null and old.revoked_at is null) execute function cin_notify_key_gone()`.execute(db);
  await sql`create trigger api_keys_deleted_notify after delete on api_keys for each row execute function cin_notify_key_gone()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop trigger if exists api_keys_deleted_notify on api_keys`.execute(db);
  await sql`drop trigger if exists api_keys_revoked_notify on api_keys`.execute(db);
  await sql`drop function if exists cin_notify_key_gone()`.execute(db);
  await sql`drop trigger if exists outbox_events_notify on outbox_events`.execute(db);
  await sql`drop function if exists cin_notify_change()`.execute(db);
}
