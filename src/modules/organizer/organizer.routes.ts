import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, errorResponses, ref } from '../../schemas/common.js';
import { CapturedItemSchema } from './organizer.schemas.js';

export const organizerRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'organizer'>> = async (app, { organizer }) => {
  app.post(
    '/items/:id/organize',
    {
      config: { scope: 'write', pro: true, idempotent: true, etag: 'item' },
      schema: {
        tags: ['items'],
        operationId: 'organizeItem',
        summary: 'Run the AI organizer on an item (Pro)',
        description:
          'Classifies the item, routes an Inbox item to a matching project and reads a due date from its title when it has none. ' +
          'Counts against the daily AI quota. Answers the item with `ai`.',
        params: IdParams,
        response: {
          200: ref(CapturedItemSchema, 'the item after the organizer, with what it decided in `ai`'),
          ...errorResponses(400, 401, 402, 404, 413, 415, 429),
        },
      },
    },
    async (request) => organizer.organizeItem(authUser(request), request.params.id),
  );
};
