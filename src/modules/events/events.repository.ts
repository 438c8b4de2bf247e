import { sql, type CompiledQuery, type QueryCreator } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { DatabaseSchema, Executor } from '../../db/schema.js';

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
  await outboxInsert(db, { userId, ...outboxColumns(rows) }, dialect);
}

/** The same insert compiled with its values, for a synchronous unit (db/sqlite/sync-units.ts). */
export function outboxInsertQuery(db: Executor, dialect: DialectName, userId: string, rows: OutboxRow[]): CompiledQuery {
  return outboxInsert.compile(db, { userId, ...outboxColumns(rows) }, dialect);
}

/** An event is inserted already dispatched when its user has no webhook (see insertOutboxEvents). */
const dispatchedAt = (userId: string, createdAt: unknown) =>
  sql<string | null>`(case when exists (select 1 from webhooks where user_id = ${userId}) then null else ${createdAt} end)`;

/** Compiled once per number of events: every change of an item runs it. */
const outboxInsert = preparedQuery((db, p: OutboxColumns & { userId: string }, dialect) =>
  db.insertInto('outbox_events').values(
    p.outboxIds.map((id, i) => ({
      id,
      user_id: p.userId,
      event: p.outboxEvents[i]!,
      item_id: p.outboxItemIds[i]!,
      payload: p.outboxPayloads[i]!,
      created_at: p.outboxCreatedAts[i]!,
      dispatched_at: dispatchedAt(p.userId, p.outboxCreatedAts[i]!),
      ...(dialect === 'sqlite' ? { seq: sql<number>`(select n from outbox_sequence where id = 1) + ${sql.lit(i + 1)}` } : {}),
    })),
  ),
);

/** Outbox rows as parallel lists, a prepared query's parameters (a type, not an interface, to fit PreparedParams). */
export type OutboxColumns = {
  outboxIds: readonly string[];
  outboxEvents: readonly string[];
  outboxItemIds: readonly string[];
  outboxPayloads: readonly string[];
  outboxCreatedAts: readonly string[];
};

export const outboxColumns = (rows: readonly OutboxRow[]): OutboxColumns => ({
  outboxIds: rows.map((r) => r.id),
  outboxEvents: rows.map((r) => r.event),
  outboxItemIds: rows.map((r) => r.item_id),
  outboxPayloads: rows.map((r) => r.payload),
  outboxCreatedAts: rows.map((r) => r.created_at),
});

/** The columns `outboxRowsIfWritten` selects, in its order. */
const OUTBOX_INSERT_COLUMNS = ['id', 'user_id', 'event', 'item_id', 'payload', 'created_at', 'dispatched_at'] as const;

/**
 * PostgreSQL: the outbox rows of a change as a SELECT that yields them only if the data-modifying
 * CTE `written` of the same statement returned a row. `with written as (update … returning id)
 * insert into outbox_events … select` then writes a change and its events in one statement, one
 * round trip and atomic on its own, where a transaction takes four (BEGIN, write, events, COMMIT).
 */
function outboxRowsIfWritten(userId: string, p: OutboxColumns) {
  const values = sql.join(
    p.outboxIds.map(
      (id, i) => sql`(${id}::text, ${p.outboxEvents[i]!}::text, ${p.outboxItemIds[i]!}::text, ${p.outboxPayloads[i]!}::text, ${p.outboxCreatedAts[i]!}::text)`,
    ),
  );
  return sql<OutboxRow & { dispatched_at: string | null }>`select e.id, ${userId}::text, e.event, e.item_id, e.payload, e.created_at,
    ${dispatchedAt(userId, sql.ref('e.created_at'))}
    from (values ${values}) as e (id, event, item_id, payload, created_at)
    where exists (select 1 from written)`;
}

/** A statement whose data-modifying CTE `written` answers the id of the row it wrote. */
export type WrittenCte = QueryCreator<DatabaseSchema & { written: { id: string } }>;

/**
 * PostgreSQL: the insert of a change's events that ends a one-statement write (decisions/0032):
 * `written` is the CTE that wrote the item; the events are inserted only if it wrote a row.
 * For a prepared query's builder: `p` may hold its stand-ins.
 */
export function insertOutboxAfterWrite(qc: WrittenCte, userId: string, p: OutboxColumns) {
  return qc.insertInto('outbox_events').columns(OUTBOX_INSERT_COLUMNS).expression(outboxRowsIfWritten(userId, p));
}

/** A statement whose data-modifying CTE `written` answers the row it wrote, its event's name and the item's view as JSON text. */
export type WrittenViewCte = QueryCreator<DatabaseSchema & { written: { id: string; event: string; item_json: string } }>;

/** The id and time of an event whose body the statement itself builds (insertBuiltEventAfterWrite). */
export type BuiltEventParams = { eventId: string; eventCreatedAt: string };

/**
 * PostgreSQL: the insert of the one event of a change whose item view the statement built in SQL
 * from the row it wrote (`written`: id, event, item_json; decisions/0107), wrapped here in the
 * delivery body's own field order, as JSON.stringify writes a DeliveryBody. Nothing is inserted if
 * `written` wrote nothing.
 */
export function insertBuiltEventAfterWrite(qc: WrittenViewCte, userId: string, p: BuiltEventParams) {
  const body = sql<string>`'{"id":' || to_json(${p.eventId}::text)::text || ',"event":' || to_json(w.event)::text || ',"created_at":' || to_json(${p.eventCreatedAt}::text)::text || ',"data":{"item":' || w.item_json || '}}'`;
  return qc
    .insertInto('outbox_events')
    .columns(OUTBOX_INSERT_COLUMNS)
    .expression(
      sql<OutboxRow & { dispatched_at: string | null }>`select ${p.eventId}::text, ${userId}::text, w.event, w.id, ${body}, ${p.eventCreatedAt}::text,
        ${dispatchedAt(userId, sql`${p.eventCreatedAt}::text`)}
        from written as w`,
    );
}

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

/** The user's newest event a feed read can serve now (finished transactions only), or none. */
export async function findFeedTail(db: Executor, dialect: DialectName, userId: string): Promise<FeedPosition | undefined> {
  let query = db.selectFrom('outbox_events').select(['txid', 'seq']).where('user_id', '=', userId);
  if (dialect === 'postgres') query = query.where('txid', '<', SNAPSHOT_XMIN);
  const row = await query.orderBy('txid', 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? { txid: Number(row.txid), seq: Number(row.seq) } : undefined;
}

/**
 * PostgreSQL: whether the user has events after `after` that a feed read cannot serve yet because an
 * older transaction is still running (see SNAPSHOT_XMIN). SQLite's writers are serialized: never.
 */
export async function hasHeldBackEvents(db: Executor, dialect: DialectName, userId: string, after: FeedPosition): Promise<boolean> {
  if (dialect === 'sqlite') return false;
  const row = await db
    .selectFrom('outbox_events')
    .select(sql<number>`1`.as('one'))
    .where('user_id', '=', userId)
    .where(({ eb, refTuple, tuple }) => eb(refTuple('txid', 'seq'), '>', tuple(after.txid, after.seq)))
    .where('txid', '>=', SNAPSHOT_XMIN)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
