import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { DatabaseSchema, Executor, WebhookDeliveriesTable, WebhookKind } from '../../db/schema.js';

/*
 * The delivery queue: every write to webhook_deliveries goes through this file or
 * delivery-outcome.repository.ts. Claims are single UPDATE statements: on PostgreSQL the rows are
 * picked with FOR UPDATE SKIP LOCKED, so concurrent workers never pick the same row and never wait
 * on each other; on SQLite one statement is atomic under its single writer, which gives the same
 * guarantee.
 */

type DeliveryExpressions = ExpressionBuilder<DatabaseSchema, 'webhook_deliveries'>;

/** No worker holds the delivery: never leased, or its lease has run out (the holder died or hung). */
export const leaseIsFree = (eb: DeliveryExpressions, now: string): Expression<SqlBool> => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]);

/** Owed another attempt of its set and not held by anyone: what a claim may take. */
const claimable = (eb: DeliveryExpressions, now: string, maxAttempts: number): Expression<SqlBool> =>
  eb.and([eb('status', '=', 'pending'), eb('round_attempts', '<', maxAttempts), leaseIsFree(eb, now)]);

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
  sealed_secret: string;
  event: string;
  payload: string;
  /** `webhook`, or a notification channel's kind (decision 0041). */
  kind: WebhookKind;
  target: string | null;
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
          eb.fn
            .agg<number>('row_number')
            .over((ob) => ob.partitionBy('webhook_id').orderBy('next_attempt_at').orderBy('id'))
            .as('rn'),
        ])
        .where((eb) => claimable(eb, o.now, o.maxAttempts))
        .where('next_attempt_at', '<=', o.now),
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
    .where((eb) => claimable(eb, o.now, o.maxAttempts))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(o.limit);
  if (dialect === 'postgres') lockable = lockable.forUpdate().skipLocked();

  return (
    db
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
      .where((eb) => claimable(eb, o.now, o.maxAttempts))
      .returning(['id', 'user_id', 'webhook_id', 'event_id', 'attempts', 'round_attempts'])
      .execute()
  );
}

/** What an attempt needs: where to send, the sealed key, and the exact body that was written with the event. */
export async function findAttemptContexts(db: Executor, ids: readonly string[]): Promise<AttemptContext[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', (j) => j.onRef('w.user_id', '=', 'd.user_id').onRef('w.id', '=', 'd.webhook_id'))
    .innerJoin('outbox_events as e', (j) => j.onRef('e.user_id', '=', 'd.user_id').onRef('e.id', '=', 'd.event_id'))
    .select(['d.id', 'w.url', 'w.sealed_secret', 'e.event', 'e.payload', 'w.kind', 'w.target'])
    .where('d.id', 'in', [...ids])
    .execute();
}

/** Back to pending for a fresh set of attempts; an attempt in flight keeps its lease and finishes. */
export async function requeueDelivery(db: Executor, userId: string, webhookId: string, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', round_attempts: 0, next_attempt_at: now })
    .where('user_id', '=', userId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes up to `limit` finished deliveries created before `cutoff` (the log keeps 7 days); answers how many. */
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

/** Deliveries still owed an attempt, for the queue-depth metric. */
export async function countPendingDeliveries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
