import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * Sync: the outbox becomes a change feed, and POSTs get idempotency keys.
 *
 * Every outbox event gets a position (txid, seq): `seq` increases with each insert, `txid` is the
 * writing transaction's id on PostgreSQL (pg_current_xact_id, as bigint) and 0 on SQLite. Readers
 * only take events of transactions older than their snapshot's xmin, ordered by (txid, seq), so a
 * later page can never skip an event of a transaction that committed late (see
 * docs/decisions/0002-change-feed-order.md). SQLite has no sequences and cannot add an
 * autoincrement column to an existing table (and its rowid may be reused after pruning), so its
 * `seq` is the one-row `outbox_sequence` counter plus the row's place in the insert, and a trigger
 * moves the counter on within the same statement (SQLite writers are serialized anyway).
 *
 * `idempotency_keys` keeps the answer of a POST per user and key for 24 hours.
 */
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  if (sqlite) {
    await db.schema
      .alterTable('outbox_events')
      .addColumn('txid', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('outbox_events')
      .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update outbox_events set seq = (
        select n from (select rowid as r, row_number() over (order by created_at, id) as n from outbox_events) as ordered
        where ordered.r = outbox_events.rowid)`.execute(db);
    await db.schema
      .createTable('outbox_sequence')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into outbox_sequence (id, n) select 1, coalesce(max(seq), 0) from outbox_events`.execute(db);
    // Inside the insert statement itself, so recording events costs no extra round trip.
    await sql`create trigger outbox_events_sequence after insert on outbox_events begin
      update outbox_sequence set n = new.seq where id = 1 and n < new.seq;
    end`.execute(db);
  } else {
    await db.schema
      .alterTable('outbox_events')
      .addColumn('txid', 'bigint', (c) => c.notNull().defaultTo(sql`(pg_current_xact_id()::text::bigint)`))
      .execute();
    await db.schema
      .alterTable('outbox_events')
      .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
      .execute();
    // Existing events in the order they were written (the identity numbered them in storage order).
    await sql`update outbox_events e set seq = o.n
      from (select user_id, id, row_number() over (order by created_at, id) as n from outbox_events) o
      where e.user_id = o.user_id and e.id = o.id`.execute(db);
  }
  // The feed of one user; the unique one states the invariant.
  await db.schema.createIndex('outbox_events_user_position_idx').on('outbox_events').columns(['user_id', 'txid', 'seq']).execute();
  await db.schema.createIndex('outbox_events_position_idx').on('outbox_events').columns(['txid', 'seq']).unique().execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // SHA-256 hex of method, path and the body's SHA-256.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // Null while the first request runs (until lease_until); then its answer.
    .addColumn('status', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('lease_until', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropIndex('outbox_events_position_idx').execute();
  await db.schema.dropIndex('outbox_events_user_position_idx').execute();
  if (isSqlite(db)) {
    await sql`drop trigger outbox_events_sequence`.execute(db);
    await db.schema.dropTable('outbox_sequence').execute();
  }
  await db.schema.alterTable('outbox_events').dropColumn('seq').execute();
  await db.schema.alterTable('outbox_events').dropColumn('txid').execute();
}
