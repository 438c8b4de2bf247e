import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { Span } from '../../modules/quick-add/grammar.js';
import { actingUser, dateContext } from '../acting.js';
import { formatDueAbsolute } from '../dates.js';
import { CSRF_FIELD, field } from './forms.js';
import { literalRanges } from '../literal-ranges.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';

const ParseBody = Type.Object({ ...CSRF_FIELD, text: field(CAPTURE_TEXT_MAX + 1000), literal: field(600) });

/**
 * What the capture box's script shows under the text: the spans understood (a date with its day and
 * time in the user's zone, the day alone when it is all-day), whether the date is all-day, or nothing.
 */
type ParseAnswer = { spans: (Span & { shown?: string })[]; all_day: boolean } | { error: string };

/**
 * Quick add while typing: the capture box's script sends its text here (debounced) and shows the
 * spans the same service as POST /api/v1/parse understands. Nothing is stored, so it is free on
 * every plan and not counted against the limits; a failure only hides the preview.
 */
export const webQuickAddRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'clock' | 'quickAdd'>> = async (app, { clock, quickAdd }) => {
  app.post('/inbox/parse', { schema: { body: ParseBody } }, async (request, reply) => {
    const answer = (status: number, body: ParseAnswer) => reply.status(status).type('application/json; charset=utf-8').send(body);
    const user = actingUser(request);
    if (!user) return answer(401, { error: 'Sign in again.' });
    const text = request.body.text ?? '';
    if (text.trim() === '') return answer(200, { spans: [], all_day: false });
    try {
      // The readings the user refused are plain words here as they will be in the capture (decision 0098).
      const { spans, all_day: allDay } = await quickAdd.parse(user, text, literalRanges(request.body.literal));
      const dates = dateContext(request, user.timezone, clock);
      return answer(200, {
        spans: spans.map((s) => (s.kind === 'date' ? { ...s, shown: formatDueAbsolute(s.value, dates, allDay) } : s)),
        all_day: allDay,
      });
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return answer(error.statusCode, { error: error.message });
      throw error;
    }
  });
};
