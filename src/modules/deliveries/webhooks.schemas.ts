import { Type, type Static } from 'typebox';
import { ITEM_EVENT_NAMES, type ItemEventName } from '../events/events.service.js';
import { Nullable, UtcTimestamp, Uuid, ref } from '../../schemas/common.js';

export const MAX_WEBHOOKS_PER_USER = 20;

const EventName = Type.Unsafe<ItemEventName>({ type: 'string', enum: [...ITEM_EVENT_NAMES], description: 'an item event name' });

const FailureReason = Type.Unsafe<'http_status' | 'redirect' | 'timeout' | 'network_error' | 'blocked_destination'>({
  type: 'string',
  enum: ['http_status', 'redirect', 'timeout', 'network_error', 'blocked_destination'],
});

export const WebhookSchema = Type.Object(
  {
    id: Uuid,
    url: Type.String({ format: 'uri' }),
    events: Type.Array(EventName),
    description: Nullable(Type.String()),
    created_at: UtcTimestamp,
    last_failure_status: Nullable(
      Type.Integer({ description: 'HTTP status of the last attempt of the last delivery whose attempts all failed; 0 when no response came' }),
    ),
    last_failure_reason: Nullable(FailureReason),
    last_failure_at: Nullable(UtcTimestamp),
  },
  { $id: 'Webhook', title: 'Webhook' },
);

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(ref(WebhookSchema)) }, { $id: 'WebhookList', title: 'WebhookList' });

export const CreatedWebhookSchema = Type.Object(
  {
    webhook: ref(WebhookSchema),
    secret: Type.String({ description: 'shown only here; the signing key is the lowercase hex SHA-256 of it' }),
  },
  { $id: 'CreatedWebhook', title: 'CreatedWebhook' },
);

export const DeliverySchema = Type.Object(
  {
    id: Uuid,
    event_id: Uuid,
    event: EventName,
    item_id: Uuid,
    status: Type.Unsafe<'pending' | 'succeeded' | 'failed'>({ type: 'string', enum: ['pending', 'succeeded', 'failed'] }),
    attempts: Type.Integer({ description: 'every attempt ever made, redeliveries included' }),
    last_status: Nullable(Type.Integer({ description: 'HTTP status of the last attempt; 0 when no response came; null before any attempt' })),
    last_failure_reason: Nullable(FailureReason),
    created_at: UtcTimestamp,
    last_attempt_at: Nullable(UtcTimestamp),
  },
  { $id: 'Delivery', title: 'Delivery' },
);

export const DeliveryPageSchema = Type.Object(
  {
    deliveries: Type.Array(ref(DeliverySchema)),
    next_cursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null on the last page' })),
  },
  { $id: 'DeliveryPage', title: 'DeliveryPage' },
);

export const CreateWebhookBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'public https URL (no credentials, no localhost, .local or .internal, no private or loopback address)',
  }),
  events: Type.Array(EventName, { minItems: 1, maxItems: 50, description: 'one or more event names; repeats count once' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const DeliveryParams = Type.Object({
  id: Type.String({ description: 'webhook id (UUID)' }),
  delivery_id: Type.String({ description: 'delivery id (UUID)' }),
});

export type WebhookView = Static<typeof WebhookSchema>;
export type DeliveryView = Static<typeof DeliverySchema>;
