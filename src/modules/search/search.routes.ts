import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { ItemPageSchema } from '../items/items.schemas.js';
import { SearchQuery } from './search.schemas.js';

export const searchRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'search'>> = async (app, { search }) => {
  app.get(
    '/items/search',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['items'],
        operationId: 'searchItems',
        summary: 'Search items by words and filters, newest first',
        description:
          'All filters combine with AND. Archived and completed items are included unless status or is_completed narrows the search. ' +
          'Follow next_cursor with the same filters; a cursor of another search or listing is a 400.',
        querystring: SearchQuery,
        response: { 200: ref(ItemPageSchema, 'a page of matching items'), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => search.search(authUser(request).id, request.query),
  );
};
