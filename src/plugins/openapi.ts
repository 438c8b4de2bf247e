import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { ErrorSchema, InsufficientScopeErrorSchema, RateLimitErrorSchema } from '../schemas/common.js';
import { SavedFilterSchema } from '../schemas/filter.js';
import { installDocsExamples } from './docs-examples.js';
import { installDocsUi } from './docs-ui.js';
import { AttachmentCreatedSchema, AttachmentSchema } from '../modules/attachments/attachments.schemas.js';
import { BulkResultSchema } from '../modules/bulk/bulk.schemas.js';
import { ChangePageSchema, ChangeSchema } from '../modules/events/events.schemas.js';
import { ItemPageSchema, ItemSchema, RecurrenceSchema } from '../modules/items/items.schemas.js';
import { AiSchema, CapturedItemSchema } from '../modules/organizer/organizer.schemas.js';
import { ProjectListSchema, ProjectSchema } from '../modules/projects/projects.schemas.js';
import { QuickAddSchema, SplitItemSchema, SplitPreviewSchema } from '../modules/quick-add/quick-add.schemas.js';
import { MeSchema } from '../modules/users/users.routes.js';
import { ExportDocumentSchema, ImportResultSchema } from '../modules/transfer/transfer.schemas.js';
import { TranscriptionSchema } from '../modules/voice/voice.schemas.js';
import { CreatedWebhookSchema, DeliveryPageSchema, DeliverySchema, WebhookListSchema, WebhookSchema } from '../modules/deliveries/webhooks.schemas.js';

/** Schemas referenced by `$ref`; each becomes a named component of the OpenAPI document. */
const SHARED_SCHEMAS: TSchema[] = [
  ErrorSchema,
  InsufficientScopeErrorSchema,
  RateLimitErrorSchema,
  RecurrenceSchema,
  AttachmentSchema,
  AttachmentCreatedSchema,
  ItemSchema,
  SavedFilterSchema,
  AiSchema,
  CapturedItemSchema,
  ItemPageSchema,
  ProjectSchema,
  ProjectListSchema,
  MeSchema,
  BulkResultSchema,
  TranscriptionSchema,
  WebhookSchema,
  WebhookListSchema,
  CreatedWebhookSchema,
  DeliverySchema,
  DeliveryPageSchema,
  ChangeSchema,
  ChangePageSchema,
  ExportDocumentSchema,
  ImportResultSchema,
  QuickAddSchema,
  SplitItemSchema,
  SplitPreviewSchema,
];

/** Our mark in the docs' top bar instead of Swagger's. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40"><rect x="2" y="6" width="28" height="28" rx="6" fill="#2f6fde"/><path d="M9 20l5 5 9-10" stroke="#fff" stroke-width="3.5" fill="none" stroke-linecap="round" stroke-linejoin="round"/><text x="40" y="27" font-family="system-ui,sans-serif" font-size="18" font-weight="600" fill="#fff">Capture Inbox API</text></svg>`;

/** Quiet the stock look: our colours, no "Explore" box, no validator badge. */
const THEME_CSS = `.swagger-ui .topbar { background: #1d2433; padding: 6px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .info .title small.version-stamp { background: #2f6fde; }
.swagger-ui .btn.authorize { color: #2f6fde; border-color: #2f6fde; }
.swagger-ui .btn.authorize svg { fill: #2f6fde; }`;

/**
 * The served document names no absolute server: "/" is resolved against the address /docs was
 * loaded from, so "Try it out" works from 127.0.0.1, a LAN name or behind a proxy alike, whatever
 * PUBLIC_URL says.
 */
const API_SERVERS = [{ url: '/', description: 'the server this document was loaded from' }];

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  installDocsExamples(app);
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
      servers: API_SERVERS,
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
        { name: 'attachments', description: 'Files on items, stored once per content' },
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
  installDocsUi(app, '/docs', {
    theme: { title: 'Capture Inbox API reference', css: [{ filename: 'capture-inbox.css', content: THEME_CSS }] },
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/docs', target: '_self' },
    uiConfig: { docExpansion: 'list', deepLinking: true, displayRequestDuration: true, tryItOutEnabled: false },
    validatorUrl: false,
  });
}
