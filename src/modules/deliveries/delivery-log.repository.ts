import { afterKeyset } from '../../db/keyset.js';
import type { Executor, WebhookDeliveriesTable } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';

/* The user's view of the delivery queue: read only (redeliver goes through the queue). */

export type DeliveryRow = Omit<WebhookDeliveriesTable, 'lease_owner' | 'lease_until'>;
export type DeliveryLogRow = DeliveryRow & { event: string; item_id: string };

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

function logQuery(db: Executor, userId: string, webhookId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as e', (j) => j.onRef('e.user_id', '=', 'd.user_id').onRef('e.id', '=', 'd.event_id'))
    .select([...DELIVERY_COLUMNS, 'e.event', 'e.item_id'])
    .where('d.user_id', '=', userId)
    .where('d.webhook_id', '=', webhookId);
}

/** Newest first; one row more than `limit` so the caller knows whether another page exists. */
export async function findDeliveryPage(db: Executor, userId: string, webhookId: string, q: { after?: CursorKey; limit: number }): Promise<DeliveryLogRow[]> {
  let query = logQuery(db, userId, webhookId);
  const { after } = q;
  if (after) query = query.where((eb) => afterKeyset(eb, 'd.created_at', 'd.id', 'desc', after.k, after.id));
  return query
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

export async function findDelivery(db: Executor, userId: string, webhookId: string, id: string): Promise<DeliveryLogRow | undefined> {
  return logQuery(db, userId, webhookId).where('d.id', '=', id).executeTakeFirst();
}
