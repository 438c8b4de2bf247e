import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, Nullable, PageQuery, UtcTimestamp, errorResponses } from '../../schemas/common.js';

const CompletionPage = Type.Object(
  {
    completions: Type.Array(
      Type.Object({ completed_at: UtcTimestamp, due_at: Nullable(UtcTimestamp) }, { description: 'one completed occurrence: when, and the due date it had' }),
    ),
    next_cursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null on the last page' })),
  },
  { title: 'CompletionPage' },
);

export const recurrenceRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'recurrence'>> = async (app, { recurrence }) => {
  app.get(
    '/items/:id/completions',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['items'],
        operationId: 'listItemCompletions',
        summary: 'The occurrences of a recurring item completed so far, newest first',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: CompletionPage, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => recurrence.completions(authUser(request).id, request.params.id, request.query),
  );
};
