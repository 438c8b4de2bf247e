import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { ParseBody, QuickAddSchema } from './quick-add.schemas.js';

export const quickAddRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'quickAdd'>> = async (app, { quickAdd }) => {
  app.post(
    '/parse',
    {
      // Whoever may capture may ask what a capture would understand; free on every plan, no organizer quota.
      config: { scope: 'capture', idempotent: false },
      schema: {
        tags: ['items'],
        operationId: 'parse',
        summary: 'Read quick add: what a capture with parse would understand',
        description:
          'Reads the first line of text with the quick-add grammar (`#Project`, `#"Two words"`, `@tag`, dates and times in words, ' +
          "`every monday 9am`, `every! 2 weeks`) in the user's time zone and answers the fields and the spans understood. Stores nothing. " +
          'Deterministic, no AI, free on every plan. A `#name` that is no project of the user stays in the title.',
        body: ParseBody,
        response: { 200: ref(QuickAddSchema, 'what quick add understands'), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => quickAdd.parse(authUser(request), request.body.text),
  );
};
