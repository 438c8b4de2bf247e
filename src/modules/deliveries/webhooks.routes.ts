import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, OkSchema, PageQuery, errorResponses, ref } from '../../schemas/common.js';
import { CreateWebhookBody, CreatedWebhookSchema, DeliveryPageSchema, DeliveryParams, DeliverySchema, WebhookListSchema } from './webhooks.schemas.js';

const tags = ['webhooks'];

export const webhooksRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'webhooks'>> = async (app, { webhooks }) => {
  app.get(
    '/webhooks',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: "List the user's webhooks",
        response: { 200: ref(WebhookListSchema, 'the webhooks'), ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ webhooks: await webhooks.list(authUser(request).id) }),
  );

  app.post(
    '/webhooks',
    {
      config: { scope: 'webhooks', pro: true, idempotent: true },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Register a webhook (Pro); the secret is in this response only',
        description: 'Deliveries are signed with X-Service-Signature and the Standard Webhooks headers; see the README. At most 20 webhooks per user.',
        body: CreateWebhookBody,
        response: { 201: ref(CreatedWebhookSchema, 'the webhook and its secret'), ...errorResponses(400, 401, 402, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(authUser(request).id, request.body);
      // The secret is a credential shown once: no cache may keep this response.
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook; its pending deliveries stop',
        params: IdParams,
        response: { 200: OkSchema, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await webhooks.remove(authUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "A webhook's deliveries (kept 7 days), newest first",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ref(DeliveryPageSchema, 'a page of deliveries'), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => webhooks.deliveries(authUser(request).id, request.params.id, request.query),
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: { scope: 'webhooks', idempotent: true },
      schema: {
        tags,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again: back to pending for a fresh set of attempts',
        params: DeliveryParams,
        response: { 200: ref(DeliverySchema, 'the delivery, pending again'), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => webhooks.redeliver(authUser(request).id, request.params.id, request.params.delivery_id),
  );
};
