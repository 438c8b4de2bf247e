import { sql } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';
import type { FeedPosition } from '../events/events.repository.js';

/*
 * Fan-out reads the change feed after its own position (one row, `outbox_dispatch`), so an event
 * costs nothing more than its insert unless its user has a webhook. The position row is locked by
 * the first statement of the fan-out transaction, so instances take turns; like the feed, only
 * events of transactions older than the snapshot's xmin are read, so none is ever passed over.
 */

export interface NewEvent {
  id: string;
  user_id: string;
  event: string;
  created_at: string;
}

const toPosition = (row: { txid: number | string; seq: number | string }): FeedPosition => ({ txid: Number(row.txid), seq: Number(row.seq) });

/**
 * PostgreSQL: the xmin to read up to, taken before the transaction locks anything (so its own id,
 * assigned by that lock, does not hold the bound back). Undefined on SQLite, whose single writer
 * makes every committed event final.
 */
export async function findReadBound(db: Executor, dialect: DialectName): Promise<number | undefined> {
  if (dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db);
  return Number(rows[0]!.xmin);
}

/** Locks the fan-out position for the rest of the transaction and answers it. */
export async function lockDispatchPosition(trx: Executor): Promise<FeedPosition> {
  const row = await trx
    .updateTable('outbox_dispatch')
    .set((eb) => ({ seq: eb.ref('seq') }))
    .where('id', '=', 1)
    .returning(['txid', 'seq'])
    .executeTakeFirstOrThrow();
  return toPosition(row);
}

export async function saveDispatchPosition(trx: Executor, position: FeedPosition): Promise<void> {
  await trx.updateTable('outbox_dispatch').set({ txid: position.txid, seq: position.seq }).where('id', '=', 1).execute();
}

/** Up to `limit` events after `after`, in feed order, of users that have at least one webhook. */
export async function findEventsToFanOut(
  db: Executor,
  after: FeedPosition,
  bound: number | undefined,
  limit: number,
): Promise<(NewEvent & FeedPosition)[]> {
  let query = db
    .selectFrom('outbox_events as e')
    .select(['e.id', 'e.user_id', 'e.event', 'e.created_at', 'e.txid', 'e.seq'])
    .where(({ eb, refTuple, tuple }) => eb(refTuple('e.txid', 'e.seq'), '>', tuple(after.txid, after.seq)))
    .where(({ exists, selectFrom }) => exists(selectFrom('webhooks as w').select('w.id').whereRef('w.user_id', '=', 'e.user_id')));
  if (bound !== undefined) query = query.where('e.txid', '<', bound);
  const rows = await query.orderBy('e.txid').orderBy('e.seq').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, user_id: r.user_id, event: r.event, created_at: r.created_at, ...toPosition(r) }));
}

/** The last position readable under `bound`, or undefined when there is no event at all. */
export async function findLastPosition(db: Executor, bound: number | undefined): Promise<FeedPosition | undefined> {
  let query = db.selectFrom('outbox_events').select(['txid', 'seq']);
  if (bound !== undefined) query = query.where('txid', '<', bound);
  const row = await query.orderBy('txid', 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? toPosition(row) : undefined;
}

/**
 * Deletes up to `limit` outbox events created before `cutoff` that no webhook still needs: the
 * fan-out has passed them and none of their deliveries is pending. Their deliveries go with them.
 */
export async function pruneOutboxEvents(db: Executor, cutoff: string, limit: number): Promise<number> {
  const doomed = db
    .selectFrom('outbox_events as e')
    .select(['e.user_id', 'e.id'])
    .where('e.created_at', '<', cutoff)
    .where(({ eb, refTuple, selectFrom }) =>
      eb(refTuple('e.txid', 'e.seq'), '<=', selectFrom('outbox_dispatch as p').select(['p.txid', 'p.seq']).where('p.id', '=', 1).$asTuple('txid', 'seq')),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.user_id', '=', 'e.user_id')
            .whereRef('d.event_id', '=', 'e.id')
            .where('d.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('e.created_at')
    .limit(limit);
  const result = await db
    .deleteFrom('outbox_events')
    .where(({ eb, refTuple }) => eb(refTuple('user_id', 'id'), 'in', doomed.$asTuple('user_id', 'id')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` finished deliveries created before `cutoff` (the delivery log keeps 7 days). */
export async function pruneFinishedDeliveries(db: Executor, cutoff: string, limit: number): Promise<number> {
  const doomed = db
    .selectFrom('webhook_deliveries')
    .select(['user_id', 'id'])
    .where('status', '!=', 'pending')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit);
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where(({ eb, refTuple }) => eb(refTuple('user_id', 'id'), 'in', doomed.$asTuple('user_id', 'id')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
