import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { ErrorSchema, RateLimitErrorSchema } from '../schemas/common.js';
import { BulkResultSchema } from '../modules/bulk/bulk.schemas.js';
import { CapturedItemSchema, ItemPageSchema, ItemSchema } from '../modules/items/items.schemas.js';
import { AiSchema } from '../modules/organizer/organizer.schemas.js';
import { ProjectListSchema, ProjectSchema } from '../modules/projects/projects.schemas.js';
import { MeSchema } from '../modules/users/users.routes.js';
import { ExportDocumentSchema, ImportResultSchema } from '../modules/transfer/transfer.schemas.js';
import { TranscriptionSchema } from '../modules/voice/voice.schemas.js';
import { CreatedWebhookSchema, DeliveryPageSchema, DeliverySchema, WebhookListSchema, WebhookSchema } from '../modules/webhooks/webhooks.schemas.js';

/** Schemas referenced by `$ref`; each becomes a named component of the OpenAPI document. */
export const SHARED_SCHEMAS: TSchema[] = [
  ErrorSchema, RateLimitErrorSchema, ItemSchema, AiSchema, CapturedItemSchema, ItemPageSchema, ProjectSchema, ProjectListSchema, MeSchema,
  BulkResultSchema, TranscriptionSchema, WebhookSchema, WebhookListSchema, CreatedWebhookSchema, DeliverySchema, DeliveryPageSchema,
  ExportDocumentSchema, ImportResultSchema,
];

export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Capture Inbox API',
        version: '1.0.0',
        description: 'A capture-first inbox of notes and todos. Every /api/v1 route needs `Authorization: Bearer <key>` unless marked otherwise.',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'cin_<prefix>_<secret>' } } },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'account', description: 'The current user' },
        { name: 'items', description: 'Capture, read and change items' },
        { name: 'projects', description: 'Projects that group items' },
        { name: 'tags', description: 'Tags on items' },
        { name: 'voice', description: 'Speech to text (Pro)' },
        { name: 'pairing', description: 'Browser pairing: a client gets a key once the user approves (no key needed)' },
        { name: 'webhooks', description: 'Signed notifications of item events, and their delivery log' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
