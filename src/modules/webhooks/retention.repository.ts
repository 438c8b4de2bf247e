import type { Executor } from '../../db/schema.js';

/*
 * What the delivery worker prunes besides outbox events (pruneDispatchedEvents): the delivery log
 * keeps 7 days, while events stay 31 for the change feed.
 */

/** Deletes up to `limit` finished deliveries created before `cutoff`; answers how many. */
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

/**
 * Events are marked dispatched at insert when their user has no webhook. One written while the
 * user's first webhook was being registered may have been marked so before the webhook was
 * visible; a new webhook hands its user's events since its registration back to fan-out (which
 * skips the deliveries that exist already), so such an event still reaches it.
 */
export async function reopenEventsSince(db: Executor, userId: string, since: string): Promise<void> {
  await db
    .updateTable('outbox_events')
    .set({ dispatched_at: null })
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('dispatched_at', 'is not', null)
    .execute();
}
