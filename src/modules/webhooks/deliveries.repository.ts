import { sql } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { DeliveryStatus, Executor, WebhookDeliveriesTable } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';

/*
 * The delivery queue. Claims are single UPDATE statements: on PostgreSQL the rows are picked with
 * FOR UPDATE SKIP LOCKED, so concurrent workers never pick the same row and never wait on each
 * other; on SQLite one statement is atomic under its single writer, which gives the same guarantee.
 */

export type DeliveryRow = Omit<WebhookDeliveriesTable, 'lease_owner' | 'lease_until'>;
export type DeliveryLogRow = DeliveryRow & { event: string; item_id: string };

export interface ClaimedEvent {
  id: string;
  user_id: string;
  event: string;
  created_at: string;
}

export interface SubscribedWebhook {
  id: string;
  user_id: string;
  events: string;
  created_at: string;
}

export interface ClaimedDelivery {
  id: string;
  user_id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  round_attempts: number;
}

export interface AttemptContext {
  id: string;
  url: string;
  signing_key: string;
  event: string;
  payload: string;
}

const DELIVERY_COLUMNS = [
  'd.id',
  'd.user_id',
  'd.webhook_id',
  'd.event_id',
  'd.status',
  'd.attempts',
  'd.round_attempts',
  'd.last_status',
  'd.last_failure_reason',
  'd.next_attempt_at',
  'd.created_at',
  'd.last_attempt_at',
] as const;

/** Marks up to `limit` undispatched outbox events as dispatched and answers them (oldest first). */
export async function claimUndispatchedEvents(trx: Executor, dialect: DialectName, now: string, limit: number): Promise<ClaimedEvent[]> {
  let pick = trx
    .selectFrom('outbox_events')
    .select(['user_id', 'id'])
    .where('dispatched_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') pick = pick.forUpdate().skipLocked();
  return trx
    .updateTable('outbox_events')
    .set({ dispatched_at: now })
    .where(({ eb, refTuple }) => eb(refTuple('user_id', 'id'), 'in', pick.$asTuple('user_id', 'id')))
    .where('dispatched_at', 'is', null)
    .returning(['id', 'user_id', 'event', 'created_at'])
    .execute();
}

/**
 * The webhooks that may receive these users' events. On PostgreSQL they are key-share locked until
 * the fan-out commits, so a concurrent delete waits for it (and then removes the new deliveries)
 * instead of making the fan-out's inserts fail their foreign key.
 */
export async function findWebhooksOfUsers(db: Executor, dialect: DialectName, userIds: readonly string[]): Promise<SubscribedWebhook[]> {
  if (userIds.length === 0) return [];
  const query = db.selectFrom('webhooks').select(['id', 'user_id', 'events', 'created_at']).where('user_id', 'in', [...userIds]);
  return (dialect === 'postgres' ? query.forKeyShare() : query).execute();
}

/** Chunked so one statement stays far below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

export async function insertDeliveries(db: Executor, rows: WebhookDeliveriesTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['user_id', 'webhook_id', 'event_id']).doNothing())
      .execute();
  }
}

export interface ClaimOptions {
  now: string;
  leaseUntil: string;
  owner: string;
  limit: number;
  /** Leased deliveries one webhook may have at once, across every worker. */
  perWebhook: number;
  /** Attempts in one set (the spec's three); a delivery that started them all is never claimed again. */
  maxAttempts: number;
}

/**
 * Leases up to `limit` due deliveries. Fair across webhooks: each webhook gets at most its free
 * share (perWebhook minus what is leased for it already, by any worker), so one receiver's backlog
 * or slowness cannot take every slot. Starting an attempt counts it right away, in `attempts` and
 * in the set's `round_attempts`: an attempt cut short by a crash (the receiver may have got the
 * POST) still counts, so a set never sends more than `maxAttempts` POSTs.
 */
export async function claimDueDeliveries(db: Executor, dialect: DialectName, o: ClaimOptions): Promise<ClaimedDelivery[]> {
  const candidates = db
    .with('due', (qc) =>
      qc
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          'id',
          'webhook_id',
          'next_attempt_at',
          eb.fn.agg<number>('row_number').over((ob) => ob.partitionBy('webhook_id').orderBy('next_attempt_at').orderBy('id')).as('rn'),
        ])
        .where('status', '=', 'pending')
        .where('round_attempts', '<', o.maxAttempts)
        .where('next_attempt_at', '<=', o.now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', o.now)])),
    )
    .with('busy', (qc) =>
      qc
        .selectFrom('webhook_deliveries')
        .select((eb) => ['webhook_id', eb.fn.countAll<number>().as('n')])
        .where('status', '=', 'pending')
        .where('lease_until', '>', o.now)
        .groupBy('webhook_id'),
    )
    .selectFrom('due')
    .leftJoin('busy', 'busy.webhook_id', 'due.webhook_id')
    .select('due.id')
    .where(sql<number>`due.rn + coalesce(busy.n, 0)`, '<=', o.perWebhook)
    .orderBy('due.next_attempt_at')
    .orderBy('due.id')
    .limit(o.limit);

  let lockable = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', 'in', candidates)
    .where('status', '=', 'pending')
    .where('round_attempts', '<', o.maxAttempts)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', o.now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(o.limit);
  if (dialect === 'postgres') lockable = lockable.forUpdate().skipLocked();

  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      lease_owner: o.owner,
      lease_until: o.leaseUntil,
      attempts: eb('attempts', '+', 1),
      round_attempts: eb('round_attempts', '+', 1),
      last_attempt_at: o.now,
    }))
    .where('id', 'in', lockable)
    // Repeated for PostgreSQL's re-check of a row another transaction changed meanwhile.
    .where('status', '=', 'pending')
    .where('round_attempts', '<', o.maxAttempts)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', o.now)]))
    .returning(['id', 'user_id', 'webhook_id', 'event_id', 'attempts', 'round_attempts'])
    .execute();
}

/** What an attempt needs: where to send, the sealed key, and the exact body that was written with the event. */
export async function findAttemptContexts(db: Executor, ids: readonly string[]): Promise<AttemptContext[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', (j) => j.onRef('w.user_id', '=', 'd.user_id').onRef('w.id', '=', 'd.webhook_id'))
    .innerJoin('outbox_events as e', (j) => j.onRef('e.user_id', '=', 'd.user_id').onRef('e.id', '=', 'd.event_id'))
    .select(['d.id', 'w.url', 'w.signing_key', 'e.event', 'e.payload'])
    .where('d.id', 'in', [...ids])
    .execute();
}

export interface AttemptResult {
  id: string;
  owner: string;
  succeeded: boolean;
  /** HTTP status, 0 when no response came. */
  status: number;
  reason: string | null;
  /** When the next attempt of this set is due after a failure, one entry per retry. */
  retryAt: readonly string[];
}

/**
 * Ends an attempt, only if this worker still holds the lease (a stale worker's late answer changes
 * nothing). The decision uses the row's own round counter, which the claim already advanced to
 * this attempt's number (so a redeliver that arrived during the attempt, resetting it to 0, is
 * respected). Answers the new status, or undefined when the lease was lost.
 */
export async function recordAttemptResult(
  db: Executor,
  r: AttemptResult,
): Promise<{ status: DeliveryStatus; user_id: string; webhook_id: string } | undefined> {
  // round_attempts is this attempt's number in its set: with N retry times, attempt N+1 was the last.
  const maxRound = r.retryAt.length;
  const nextAt = sql<string>`case round_attempts ${sql.join(
    r.retryAt.map((at, i) => sql`when ${i + 1} then ${at}`),
    sql` `,
  )} else next_attempt_at end`;
  const status = sql<DeliveryStatus>`case when round_attempts > ${maxRound} then 'failed' else 'pending' end`;
  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: r.succeeded ? 'succeeded' : status,
      next_attempt_at: r.succeeded ? eb.ref('next_attempt_at') : nextAt,
      last_status: r.status,
      last_failure_reason: r.reason,
      lease_owner: null,
      lease_until: null,
    }))
    .where('id', '=', r.id)
    .where('lease_owner', '=', r.owner)
    .returning(['status', 'user_id', 'webhook_id'])
    .executeTakeFirst();
}

/**
 * Gives a claimed delivery back without an outcome. `sent` says whether the POST may have gone out
 * (shutdown cut it off): then it stays counted; when nothing was sent (a key that cannot be opened)
 * the claim's count is taken back.
 */
export async function releaseLease(db: Executor, id: string, owner: string, nextAttemptAt: string, sent: boolean): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      lease_owner: null,
      lease_until: null,
      next_attempt_at: nextAttemptAt,
      ...(sent ? {} : { attempts: eb('attempts', '-', 1), round_attempts: eb('round_attempts', '-', 1) }),
    }))
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Ends the sets whose last attempt started but never recorded an outcome (the process died during
 * it) once its lease has run out: failed, with no response (status 0). Answers the webhooks that
 * lost a delivery this way, for their last-failure fields.
 */
export async function failAbandonedDeliveries(
  db: Executor,
  o: { now: string; maxAttempts: number },
): Promise<Array<{ user_id: string; webhook_id: string }>> {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_status: 0, last_failure_reason: 'network_error', lease_owner: null, lease_until: null })
    .where('status', '=', 'pending')
    .where('round_attempts', '>=', o.maxAttempts)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', o.now)]))
    .returning(['user_id', 'webhook_id'])
    .execute();
}

function logQuery(db: Executor, userId: string, webhookId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as e', (j) => j.onRef('e.user_id', '=', 'd.user_id').onRef('e.id', '=', 'd.event_id'))
    .select([...DELIVERY_COLUMNS, 'e.event', 'e.item_id'])
    .where('d.user_id', '=', userId)
    .where('d.webhook_id', '=', webhookId);
}

/** Newest first; one row more than `limit` so the caller knows whether another page exists. */
export async function findDeliveryPage(
  db: Executor,
  userId: string,
  webhookId: string,
  q: { after?: CursorKey; limit: number },
): Promise<DeliveryLogRow[]> {
  let query = logQuery(db, userId, webhookId);
  if (q.after) {
    const { k, id } = q.after;
    query = query.where((eb) => eb.or([eb('d.created_at', '<', k), eb.and([eb('d.created_at', '=', k), eb('d.id', '<', id)])]));
  }
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(q.limit + 1).execute();
}

export async function findDelivery(db: Executor, userId: string, webhookId: string, id: string): Promise<DeliveryLogRow | undefined> {
  return logQuery(db, userId, webhookId).where('d.id', '=', id).executeTakeFirst();
}

/** Back to pending for a fresh set of attempts; an attempt in flight keeps its lease and finishes. */
export async function resetDelivery(db: Executor, userId: string, webhookId: string, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', round_attempts: 0, next_attempt_at: now })
    .where('user_id', '=', userId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes up to `limit` dispatched outbox events created before `cutoff` that no delivery is still
 * working on; their deliveries go with them (foreign key cascade). Answers how many were deleted.
 */
export async function pruneDispatchedEvents(db: Executor, cutoff: string, limit: number): Promise<number> {
  const doomed = db
    .selectFrom('outbox_events as e')
    .select(['e.user_id', 'e.id'])
    .where('e.dispatched_at', 'is not', null)
    .where('e.created_at', '<', cutoff)
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

/** Deliveries still owed an attempt, for the queue-depth metric. */
export async function countPendingDeliveries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
