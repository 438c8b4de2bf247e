import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { organizeRequested } from '../../plugins/plan-gate.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { Type } from 'typebox';
import { ParseBody, QuickAddSchema, SplitPreviewSchema } from './quick-add.schemas.js';

export const quickAddRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'quickAdd'>> = async (app, { quickAdd }) => {
  app.post(
    '/parse',
    {
      // Whoever may capture may ask what a capture would understand; free on every plan, no organizer quota,
      // unless it asks for the organizer's split (Pro, as capture's organize).
      config: { scope: 'capture', pro: organizeRequested, idempotent: false },
      schema: {
        tags: ['items'],
        operationId: 'parse',
        summary: 'Read quick add: what a capture with parse would understand',
        description:
          'Reads the first line of text with the quick-add grammar (`#Project`, `#"Two words"`, `@tag`, dates and times in words, ' +
          "`every monday 9am`, `every! 2 weeks`) in the user's time zone and answers the fields and the spans understood. Stores nothing. " +
          'Without `organize`, deterministic, no AI, free on every plan. A `#name` that is no project of the user stays in the title. ' +
          'With `split: true` it answers the brain-dump preview `{ items }` instead: what POST /capture/batch would store for the text ' +
          '(with `organize: true`, what the batch with `organize: true` would store, the model perhaps splitting prose).',
        body: ParseBody,
        response: {
          200: Type.Union([ref(QuickAddSchema), ref(SplitPreviewSchema)], { description: 'what quick add understands; with split, the items' }),
          ...errorResponses(400, 401, 402, 413, 415, 429),
        },
      },
    },
    async (request) => {
      const { text, split, organize } = request.body;
      return split ? { items: await quickAdd.parseSplit(authUser(request), text, { organize: organize === true }) } : quickAdd.parse(authUser(request), text);
    },
  );
};
