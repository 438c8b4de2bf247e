import type { Kysely } from 'kysely';

/*
 * Drops the unique (txid, seq) index of outbox_events (docs/decisions/0032). No query reads it: the
 * change feed walks a user's events by (user_id, txid, seq), the fan-out its partial undispatched
 * index, pruning created_at. It only re-checked a uniqueness the positions already have (a
 * PostgreSQL identity column; on SQLite a counter its one writer moves), and every event of every
 * change paid one more index entry for it: on SQLite 18 µs of a toggle's 88 µs of statements.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('outbox_events_position_idx').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('outbox_events_position_idx').on('outbox_events').columns(['txid', 'seq']).unique().execute();
}
