import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { Type } from 'typebox';
import { DateTime, errorResponses, ref } from '../../schemas/common.js';
import { ItemPageSchema } from '../items/items.schemas.js';
import { BulkBody, BulkResultSchema } from './bulk.schemas.js';

export const bulkRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'bulk'>> = async (app, { bulk }) => {
  app.post(
    '/items/bulk',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags: ['items'],
        operationId: 'bulkItems',
        summary: 'Apply one op to up to 100 items',
        description:
          'Each id gets the effect and events of the single-item route, all in one transaction; update applies the PATCH fields of payload to each id, ' +
          'each on its own as PATCH would (an id PATCH refuses fails alone, with its error code). Ids that are not yours fail with not_found; ' +
          'the call still answers 200. move needs payload.project_id (missing: 400; unknown project: 404, nothing changes). ' +
          'Deleting an item and one of its subtasks in one call deletes both and counts both as updated.',
        body: BulkBody,
        response: { 200: ref(BulkResultSchema, 'what the op did'), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => bulk.run(authUser(request).id, request.body),
  );

  app.get(
    '/items/completed',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['items'],
        operationId: 'listCompletedItems',
        summary: 'Completed items, the latest completion first',
        description:
          'Items with is_completed true (archived ones too) whose last change is at or after since (default: 7 days ago), ' +
          'the most recently changed first: an item keeps no completion time of its own, so its last change stands for it.',
        querystring: Type.Object({
          since: Type.Optional(DateTime),
          limit: Type.Optional(Type.Integer({ minimum: 1, description: 'default 50, at most 200 (larger values are clamped)' })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        }),
        response: { 200: ref(ItemPageSchema, 'a page of completed items'), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => bulk.completed(authUser(request).id, request.query),
  );
};
