import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';
import { newestFirst } from '../../lib/cursor.js';

/*
 * The outbox's dispatch state: `dispatched_at` says the webhook fan-out has taken an event (or that
 * its user had no webhook when it was written). Only the events module writes outbox_events; the
 * webhook worker reaches these through the events service.
 */

export interface UndispatchedEvent {
  id: string;
  user_id: string;
  event: string;
  created_at: string;
}

/** Marks up to `limit` undispatched outbox events as dispatched and answers them (oldest first). */
export async function claimUndispatchedEvents(trx: Executor, dialect: DialectName, now: string, limit: number): Promise<UndispatchedEvent[]> {
  let pick = trx.selectFrom('outbox_events').select(['user_id', 'id']).where('dispatched_at', 'is', null).orderBy('created_at').orderBy('id').limit(limit);
  if (dialect === 'postgres') pick = pick.forUpdate().skipLocked();
  const claimed = await trx
    .updateTable('outbox_events')
    .set({ dispatched_at: now })
    .where(({ eb, refTuple }) => eb(refTuple('user_id', 'id'), 'in', pick.$asTuple('user_id', 'id')))
    .where('dispatched_at', 'is', null)
    .returning(['id', 'user_id', 'event', 'created_at'])
    .execute();
  // UPDATE … RETURNING answers rows in the order the update met them (heap order on PostgreSQL),
  // not the subquery's: fan-out gives deliveries ids in this order, and the log reads them newest first.
  // Oldest first, (created_at, id): the reverse of the pages' order.
  return claimed.sort((a, b) => newestFirst(b, a));
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

/**
 * Deletes up to `limit` dispatched outbox events created before `cutoff` that no delivery is still
 * working on; their deliveries go with them (foreign key cascade). Answers how many were deleted.
 * Undispatched events are never pruned.
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

/** Every event of the user (their deliveries go with them): the user's account is being deleted. */
export async function deleteUserEvents(trx: Executor, userId: string): Promise<void> {
  await trx.deleteFrom('outbox_events').where('user_id', '=', userId).execute();
}
