import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { ErrorSchema, InsufficientScopeErrorSchema, RateLimitErrorSchema } from '../schemas/common.js';
import { BulkResultSchema } from '../modules/bulk/bulk.schemas.js';
import { ChangePageSchema, ChangeSchema } from '../modules/events/events.schemas.js';
import { CapturedItemSchema, ItemPageSchema, ItemSchema } from '../modules/items/items.schemas.js';
import { AiSchema } from '../modules/organizer/organizer.schemas.js';
import { ProjectListSchema, ProjectSchema } from '../modules/projects/projects.schemas.js';
import { MeSchema } from '../modules/users/users.routes.js';
import { TranscriptionSchema } from '../modules/voice/voice.schemas.js';
import { CreatedWebhookSchema, DeliveryPageSchema, DeliverySchema, WebhookListSchema, WebhookSchema } from '../modules/webhooks/webhooks.schemas.js';

/** Schemas referenced by `$ref`; each becomes a named component of the OpenAPI document. */
export const SHARED_SCHEMAS: TSchema[] = [
  ErrorSchema, InsufficientScopeErrorSchema, RateLimitErrorSchema, ItemSchema, AiSchema, CapturedItemSchema, ItemPageSchema, ProjectSchema, ProjectListSchema, MeSchema,
  BulkResultSchema, TranscriptionSchema, WebhookSchema, WebhookListSchema, CreatedWebhookSchema, DeliverySchema, DeliveryPageSchema,
  ChangeSchema, ChangePageSchema,
];

export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Capture Inbox API',
        version: '1.0.0',
        description:
          'A capture-first inbox of notes and todos. Every /api/v1 route needs `Authorization: Bearer <key>` unless marked otherwise. ' +
          "Each operation's `security` names the key scope it needs (read, capture, write, webhooks); a key without it gets 403 insufficient_scope. " +
          'Listed alternatives admit the route either way (write covers capture).',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'cin_<prefix>_<secret>; the scopes a key holds are chosen when it is minted or paired' },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'account', description: 'The current user' },
        { name: 'items', description: 'Capture, read and change items' },
        { name: 'projects', description: 'Projects that group items' },
        { name: 'tags', description: 'Tags on items' },
        { name: 'voice', description: 'Speech to text (Pro)' },
        { name: 'pairing', description: 'Browser pairing: a client gets a key once the user approves (no key needed)' },
        { name: 'webhooks', description: 'Signed notifications of item events, and their delivery log' },
        { name: 'sync', description: 'The change feed for clients that keep an offline copy (see also Idempotency-Key, ETag and If-Match)' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
