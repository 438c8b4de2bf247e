import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses, UtcTimestamp } from '../../schemas/common.js';
import { DATE_TEXT_MAX, readDueDate } from './read-due-date.js';

const DateQuery = Type.Object({
  text: Type.String({
    minLength: 1,
    maxLength: DATE_TEXT_MAX,
    pattern: '\\S',
    description: 'plain words or ISO 8601: "tomorrow 5pm", "next friday", "2026-12-01 14:00"',
  }),
});

const ReadDate = Type.Object(
  {
    text: Type.String({ description: 'the text as given' }),
    due_at: Type.Unsafe<string>({ ...UtcTimestamp, description: 'the instant it names, in UTC; send it as due_at' }),
    all_day: Type.Boolean({ description: 'the words name a day without a time of day: due_at is 00:00 of it in your timezone; send it as all_day' }),
  },
  { description: 'the due date the words name' },
);

export const datesRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'clock'>> = async (app, { clock }) => {
  app.get(
    '/dates/read',
    {
      // Every GET is `read` (docs/api-scopes.md), this one too, though it reads nothing of the inbox.
      config: { scope: 'read' },
      schema: {
        tags: ['items'],
        operationId: 'readDueDate',
        summary: 'Read a due date from plain words',
        description:
          "Reads the words in the user's time zone by the organizer's rules (times without a date are the next such time; a day without " +
          'a time is all-day, 00:00 local with all_day true; "eod" is 17:00) and answers the instant. Free on every plan, no AI quota. 400 when the words name no date or only a past one.',
        querystring: DateQuery,
        response: { 200: ReadDate, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const user = authUser(request);
      return readDueDate(clock, request.query.text, user.timezone);
    },
  );
};
