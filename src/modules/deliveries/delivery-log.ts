import type { Db } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit, decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { isUuid } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ItemEventName } from '../events/events.service.js';
import { findDelivery, findDeliveryPage, type DeliveryLogRow } from './delivery-log.repository.js';
import { requeueDelivery } from './delivery-queue.repository.js';
import type { DeliveryView } from './webhooks.schemas.js';
import { findWebhookById, type WebhookRow } from './webhooks.repository.js';

/* The delivery log: what a webhook's owner sees of its deliveries, and redeliver. */

export interface DeliveryPage {
  deliveries: DeliveryView[];
  next_cursor: string | null;
}

export interface DeliveryLog {
  deliveries(userId: string, webhookId: string, query: { limit?: number; cursor?: string }): Promise<DeliveryPage>;
  redeliver(userId: string, webhookId: string, deliveryId: string): Promise<DeliveryView>;
}

const LOG_ORDERING = 'deliveries';

const toDeliveryView = (row: DeliveryLogRow): DeliveryView => ({
  id: row.id,
  event_id: row.event_id,
  event: row.event as ItemEventName,
  item_id: row.item_id,
  status: row.status,
  attempts: Number(row.attempts),
  last_status: row.last_status === null ? null : Number(row.last_status),
  last_failure_reason: row.last_failure_reason as DeliveryView['last_failure_reason'],
  created_at: row.created_at,
  last_attempt_at: row.last_attempt_at,
});

export function createDeliveryLog(deps: { db: Db; clock: Clock }): DeliveryLog {
  const { db } = deps;

  async function requireWebhook(userId: string, id: string): Promise<WebhookRow> {
    const row = isUuid(id) ? await findWebhookById(db, userId, id) : undefined;
    if (!row) throw notFound('webhook');
    return row;
  }

  return {
    async deliveries(userId, webhookId, query) {
      const webhook = await requireWebhook(userId, webhookId);
      const limit = clampLimit(query.limit, 50, 200);
      const after = query.cursor === undefined ? undefined : decodeCursor(LOG_ORDERING, query.cursor);
      const rows = await findDeliveryPage(db, userId, webhook.id, { limit, ...(after ? { after } : {}) });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        deliveries: page.map(toDeliveryView),
        next_cursor: rows.length > limit && last ? encodeCursor(LOG_ORDERING, { k: last.created_at, id: last.id }) : null,
      };
    },

    async redeliver(userId, webhookId, deliveryId) {
      const webhook = await requireWebhook(userId, webhookId);
      const now = toTimestamp(deps.clock.now());
      const reset = isUuid(deliveryId) && (await requeueDelivery(db, userId, webhook.id, deliveryId, now));
      const row = reset ? await findDelivery(db, userId, webhook.id, deliveryId) : undefined;
      if (!row) throw notFound('delivery');
      return toDeliveryView(row);
    },
  };
}
