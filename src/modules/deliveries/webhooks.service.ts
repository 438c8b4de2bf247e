import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EventsService, ItemEventName } from '../events/events.service.js';
import { createDeliveryLog, type DeliveryLog } from './delivery-log.js';
import { checkWebhookUrl, DestinationRuleError, type DestinationPolicy } from './transports/destination-rules.js';
import type { TargetSecretVault } from './target-secrets.js';
import { newWebhookSecret, signingKeyOf } from './transports/signing.js';
import { countWebhooks, deleteWebhookById, findWebhooks, insertWebhook, lockUserRow, type WebhookRow } from './webhooks.repository.js';
import { MAX_WEBHOOKS_PER_USER, type CreateWebhookBody, type WebhookView } from './webhooks.schemas.js';

export interface WebhooksService extends DeliveryLog {
  list(userId: string): Promise<WebhookView[]>;
  /** The secret is in this answer only; the service keeps its SHA-256, sealed. */
  create(userId: string, input: CreateWebhookBody): Promise<{ webhook: WebhookView; secret: string }>;
  remove(userId: string, id: string): Promise<void>;
}

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

export function createWebhooksService(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  events: EventsService;
  vault: TargetSecretVault;
  destinations: DestinationPolicy;
}): WebhooksService {
  const { db } = deps;
  const now = () => toTimestamp(deps.clock.now());

  return {
    async list(userId) {
      return (await findWebhooks(db, userId)).map(toWebhookView);
    },

    async create(userId, input) {
      let url: URL;
      try {
        url = checkWebhookUrl(input.url, deps.destinations);
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
        sealed_secret: deps.vault.seal(userId, id, signingKeyOf(secret)),
        created_at: now(),
        last_failure_status: null,
        last_failure_reason: null,
        last_failure_at: null,
        kind: 'webhook',
        target: null,
      };
      await db.transaction().execute(async (trx) => {
        await lockUserRow(trx, deps.dialect, userId);
        if ((await countWebhooks(trx, userId)) >= MAX_WEBHOOKS_PER_USER) {
          throw badRequest(`at most ${MAX_WEBHOOKS_PER_USER} webhooks per user; delete one first`);
        }
        await insertWebhook(trx, row);
        await deps.events.reopenSince(trx, userId, row.created_at);
      });
      return { webhook: toWebhookView(row), secret };
    },

    async remove(userId, id) {
      const deleted = isUuid(id) && (await deleteWebhookById(db, userId, id));
      if (!deleted) throw notFound('webhook');
    },

    ...createDeliveryLog(deps),
  };
}
