import { sql } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Executor } from '../../db/schema.js';

export interface OutboxRow {
  id: string;
  user_id: string;
  event: string;
  item_id: string;
  payload: string;
  created_at: string;
}

/** A place in the change feed: events are ordered by (txid, seq); see the sync migration. */
export interface FeedPosition {
  txid: number;
  seq: number;
}

export interface FeedRow extends FeedPosition {
  payload: string;
}

/**
 * PostgreSQL: the oldest transaction still running when the statement's snapshot was taken. Every
 * transaction with a smaller id has finished, so its events are all visible or none ever will be;
 * serving only those is what keeps a later page from skipping a late commit.
 */
const SNAPSHOT_XMIN = sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

/**
 * Inserts a transaction's events in one statement. On PostgreSQL txid and seq are column defaults;
 * on SQLite seq continues the `outbox_sequence` counter, which a trigger of the same statement
 * moves on (its writers are serialized, so the values follow every committed event). An event of a
 * user without webhooks is marked dispatched right here, so the delivery worker never touches it.
 */
export async function insertOutboxEvents(db: Executor, dialect: DialectName, userId: string, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await outboxInsert(
    db,
    {
      userId,
      ids: rows.map((r) => r.id),
      events: rows.map((r) => r.event),
      itemIds: rows.map((r) => r.item_id),
      payloads: rows.map((r) => r.payload),
      createdAts: rows.map((r) => r.created_at),
    },
    dialect,
  );
}

/** Compiled once per number of events: every change of an item runs it. */
const outboxInsert = preparedQuery(
  (
    db,
    p: {
      userId: string;
      ids: readonly string[];
      events: readonly string[];
      itemIds: readonly string[];
      payloads: readonly string[];
      createdAts: readonly string[];
    },
    dialect,
  ) =>
    db.insertInto('outbox_events').values(
      p.ids.map((id, i) => ({
        id,
        user_id: p.userId,
        event: p.events[i]!,
        item_id: p.itemIds[i]!,
        payload: p.payloads[i]!,
        created_at: p.createdAts[i]!,
        dispatched_at: sql<string | null>`(case when exists (select 1 from webhooks where user_id = ${p.userId}) then null else ${p.createdAts[i]!} end)`,
        ...(dialect === 'sqlite' ? { seq: sql<number>`(select n from outbox_sequence where id = 1) + ${sql.lit(i + 1)}` } : {}),
      })),
    ),
);

/** Up to `limit + 1` of the user's events after `after`, in feed order, from finished transactions only. */
export async function findFeedPage(db: Executor, dialect: DialectName, userId: string, after: FeedPosition, limit: number): Promise<FeedRow[]> {
  let query = db
    .selectFrom('outbox_events')
    .select(['txid', 'seq', 'payload'])
    .where('user_id', '=', userId)
    .where(({ eb, refTuple, tuple }) => eb(refTuple('txid', 'seq'), '>', tuple(after.txid, after.seq)));
  if (dialect === 'postgres') query = query.where('txid', '<', SNAPSHOT_XMIN);
  const rows = await query
    .orderBy('txid')
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  return rows.map((r) => ({ txid: Number(r.txid), seq: Number(r.seq), payload: r.payload }));
}
