import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * PostgreSQL: a change notifies `cin_changes` only when its user has a change stream open
 * (decisions/0059). A transaction that has sent NOTIFY takes one lock for the whole cluster while
 * it commits, so notifying every change serialized the commits of every write, streams or not
 * (toggle lost about a fifth of its throughput).
 *
 * "Has a stream open" is a row in live_streams, which a stream writes before its first read. So
 * that no change falls between that row and that read, the two triggers meet on an advisory lock
 * per user: each outbox row takes it shared until its transaction ends, and a stream's row takes it
 * exclusively, so registering waits for the user's writes under way to commit (the stream's first
 * read sees them) and a write that starts after it sees the row (and notifies).
 *
 * SQLite: nothing (each process's own TEMP triggers hand its commits over without any lock).
 */
// A migration is written against the tables as they were when it ran, not today's schema type (src/db/schema.ts).
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** The advisory lock's key: (this namespace, the user id's hash); another user sharing a hash only waits a little. */
const LOCK = `hashtext('cin_live_streams'), hashtext(new.user_id)`;

export async function up(db: AnyDb): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create or replace function cin_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(${sql.raw(LOCK)});
      if exists (select 1 from live_streams where user_id = new.user_id) then
        perform pg_notify('cin_changes', 'u:' || new.user_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function cin_live_stream_opening() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${sql.raw(LOCK)});
      return new;
    end $$`.execute(db);
  await sql`create trigger live_streams_opening before insert on live_streams for each row execute function cin_live_stream_opening()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop trigger if exists live_streams_opening on live_streams`.execute(db);
  await sql`drop function if exists cin_live_stream_opening()`.execute(db);
  await sql`create or replace function cin_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cin_changes', 'u:' || new.user_id);
      return null;
    end $$`.execute(db);
}
