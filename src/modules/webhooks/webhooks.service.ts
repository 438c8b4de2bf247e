import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit, decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ItemEventName } from '../events/events.service.js';
import { findDelivery, findDeliveryPage, resetDelivery, type DeliveryLogRow } from './deliveries.repository.js';
import { checkWebhookUrl, DestinationRuleError } from './destination-rules.js';
import type { SigningKeyVault } from './signing-keys.js';
import { newWebhookSecret, signingKeyOf } from './signing.js';
import { reopenEventsSince } from './retention.repository.js';
import {
  countWebhooks,
  deleteWebhookById,
  findWebhookById,
  findWebhooks,
  insertWebhook,
  lockUserRow,
  type WebhookRow,
} from './webhooks.repository.js';
import { MAX_WEBHOOKS_PER_USER, type CreateWebhookBody, type DeliveryView, type WebhookView } from './webhooks.schemas.js';

export interface DeliveryPage {
  deliveries: DeliveryView[];
  next_cursor: string | null;
}

export interface WebhooksService {
  list(userId: string): Promise<WebhookView[]>;
  /** The secret is in this answer only; the service keeps its SHA-256, sealed. */
  create(userId: string, input: CreateWebhookBody): Promise<{ webhook: WebhookView; secret: string }>;
  remove(userId: string, id: string): Promise<void>;
  deliveries(userId: string, webhookId: string, query: { limit?: number; cursor?: string }): Promise<DeliveryPage>;
  redeliver(userId: string, webhookId: string, deliveryId: string): Promise<DeliveryView>;
}

const LOG_ORDERING = 'deliveries';

const toWebhookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as ItemEventName[],
  description: row.description,
  created_at: row.created_at,
  last_failure_status: row.last_failure_status,
  last_failure_reason: row.last_failure_reason as WebhookView['last_failure_reason'],
  last_failure_at: row.last_failure_at,
});

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

export function createWebhooksService(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  vault: SigningKeyVault;
  allowPrivateTargets: boolean;
}): WebhooksService {
  const { db } = deps;
  const now = () => toTimestamp(deps.clock.now());

  async function requireWebhook(userId: string, id: string): Promise<WebhookRow> {
    const row = isUuid(id) ? await findWebhookById(db, userId, id) : undefined;
    if (!row) throw notFound('webhook');
    return row;
  }

  return {
    async list(userId) {
      return (await findWebhooks(db, userId)).map(toWebhookView);
    },

    async create(userId, input) {
      let url: URL;
      try {
        url = checkWebhookUrl(input.url, { allowPrivateTargets: deps.allowPrivateTargets });
      } catch (error) {
        if (error instanceof DestinationRuleError) throw badRequest(error.message, 'url');
        throw error;
      }
      const description = input.description?.trim() ? input.description : null;
      const secret = newWebhookSecret();
      const id = deps.newId();
      const row: WebhookRow = {
        id,
        user_id: userId,
        // The parsed form is what deliveries go to, so it is also what the user sees.
        url: url.href,
        events: JSON.stringify([...new Set(input.events)]),
        description,
        signing_key: deps.vault.seal(userId, id, signingKeyOf(secret)),
        created_at: now(),
        last_failure_status: null,
        last_failure_reason: null,
        last_failure_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await lockUserRow(trx, deps.dialect, userId);
        if ((await countWebhooks(trx, userId)) >= MAX_WEBHOOKS_PER_USER) {
          throw badRequest(`at most ${MAX_WEBHOOKS_PER_USER} webhooks per user; delete one first`);
        }
        await insertWebhook(trx, row);
        await reopenEventsSince(trx, userId, row.created_at);
      });
      return { webhook: toWebhookView(row), secret };
    },

    async remove(userId, id) {
      const deleted = isUuid(id) && (await deleteWebhookById(db, userId, id));
      if (!deleted) throw notFound('webhook');
    },

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
      const reset = isUuid(deliveryId) && (await resetDelivery(db, userId, webhook.id, deliveryId, now()));
      const row = reset ? await findDelivery(db, userId, webhook.id, deliveryId) : undefined;
      if (!row) throw notFound('delivery');
      return toDeliveryView(row);
    },
  };
}
