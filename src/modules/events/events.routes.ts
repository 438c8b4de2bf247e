import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { ChangePageSchema, ChangesQuery } from './events.schemas.js';

export const eventsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'events'>> = async (app, { events }) => {
  app.get(
    '/changes',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['sync'],
        operationId: 'listChanges',
        summary: 'The change feed: every event of your items in commit order, deletions included',
        description:
          'Follow it with next_cursor; call again at once while has_more is true. Changes are kept at least 30 days: an older cursor is 410 cursor_expired ' +
          '(re-read GET /items, then start again without a cursor). A change committed after a page was read is never skipped by the next page.',
        querystring: ChangesQuery,
        response: {
          200: ref(ChangePageSchema, 'a page of changes'),
          ...errorResponses({ 410: 'the cursor is older than 30 days (cursor_expired)' }, 400, 401, 410, 429),
        },
      },
    },
    async (request) => events.changes(authUser(request).id, request.query),
  );
};
