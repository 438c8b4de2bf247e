import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, Nullable, OkSchema, StringEnum, UtcTimestamp, Uuid, errorResponses } from '../../schemas/common.js';

const tags = ['reminders'];
const Kind = StringEnum(['webpush', 'ntfy', 'email'], { description: 'webpush | ntfy | email' });

const ChannelSchema = Type.Object(
  {
    id: Uuid,
    kind: Kind,
    url: Nullable(Type.String({ description: "ntfy: the topic URL; webpush: the push service's origin; email: null" })),
    address: Nullable(Type.String({ description: 'email: the address; else null' })),
    created_at: UtcTimestamp,
  },
  { title: 'Channel', description: 'where reminders go; never shows a token or push keys' },
);

const CreateChannelBody = Type.Object({
  kind: Kind,
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'ntfy: the topic URL (https://ntfy.sh/my-topic or a self-hosted server)' })),
  token: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'ntfy: an access token, sent as Authorization: Bearer' })),
  address: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'email: where reminders are mailed (needs SMTP_URL on the server)' })),
  subscription: Type.Optional(
    Type.Object(
      {
        endpoint: Type.String({ minLength: 1, maxLength: 2000 }),
        keys: Type.Object({ p256dh: Type.String({ minLength: 1, maxLength: 200 }), auth: Type.String({ minLength: 1, maxLength: 100 }) }),
      },
      { description: "webpush: the browser's PushSubscription (subscription.toJSON())" },
    ),
  ),
});

const TestDeliverySchema = Type.Object(
  {
    id: Uuid,
    item_id: Type.Null(),
    channel_id: Uuid,
    kind: Kind,
    remind_at: Type.Null(),
    status: StringEnum(['succeeded', 'failed']),
    attempts: Type.Integer(),
    last_status: Type.Integer({ description: 'HTTP status (SMTP reply code for email); 0 when no answer came' }),
    created_at: UtcTimestamp,
  },
  { title: 'TestDelivery' },
);

export const channelsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'channels'>> = async (app, { channels }) => {
  app.get(
    '/channels',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listChannels',
        summary: "The user's notification channels",
        response: { 200: Type.Object({ channels: Type.Array(ChannelSchema) }), ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ channels: await channels.list(authUser(request).id) }),
  );

  app.post(
    '/channels',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        operationId: 'createChannel',
        summary: 'Add a notification channel (webpush, ntfy or email); at most 20',
        body: CreateChannelBody,
        response: { 201: Type.Object({ channel: ChannelSchema }), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.status(201).send({ channel: await channels.create(authUser(request).id, request.body) }),
  );

  app.delete(
    '/channels/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'deleteChannel',
        summary: 'Delete a notification channel',
        params: IdParams,
        response: { 200: OkSchema, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await channels.remove(authUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/channels/:id/test',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        operationId: 'testChannel',
        summary: 'Send a test notification now',
        params: IdParams,
        response: { 200: TestDeliverySchema, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => channels.test(authUser(request).id, request.params.id),
  );

  app.get(
    '/push/key',
    {
      config: { public: true },
      schema: {
        tags,
        operationId: 'getPushKey',
        summary: "The server's VAPID public key, for PushManager.subscribe (no API key needed)",
        security: [],
        response: { 200: Type.Object({ public_key: Type.String({ description: 'base64url, the applicationServerKey' }) }) },
      },
    },
    async () => ({ public_key: await channels.publicKey() }),
  );
};
