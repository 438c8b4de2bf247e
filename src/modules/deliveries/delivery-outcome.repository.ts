import { sql } from 'kysely';
import type { DeliveryStatus, Executor } from '../../db/schema.js';
import { leaseIsFree } from './delivery-queue.repository.js';

/* How a claimed delivery leaves its lease: with an outcome, handed back, or abandoned by a dead worker. */

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
export async function failAbandonedDeliveries(db: Executor, o: { now: string; maxAttempts: number }): Promise<Array<{ user_id: string; webhook_id: string }>> {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_status: 0, last_failure_reason: 'network_error', lease_owner: null, lease_until: null })
    .where('status', '=', 'pending')
    .where('round_attempts', '>=', o.maxAttempts)
    .where((eb) => leaseIsFree(eb, o.now))
    .returning(['user_id', 'webhook_id'])
    .execute();
}
