import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';
import { isUuid } from '../../lib/ids.js';
import { SPLIT_ITEMS_MAX } from '../../modules/quick-add/split-lines.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { actingUser, dateContext, overLimit } from '../acting.js';
import { formatDueAbsolute } from '../dates.js';
import { CSRF_FIELD, field, safeReturn } from './forms.js';

const TextBody = Type.Object({ ...CSRF_FIELD, text: field(CAPTURE_TEXT_MAX + 1000), project_id: field(100), organize: field(5) });

/** The capture box's Organize, which only Pro users are shown: it lets the model split prose (decision 0099). */
const organizing = (user: AuthUser, body: { organize?: string | undefined }): boolean => body.organize === '1' && user.plan === 'pro';
const UndoBody = Type.Object({ ...CSRF_FIELD, ids: field(SPLIT_ITEMS_MAX * 40), return: field(2000) });

const json = (reply: FastifyReply, status: number, body: unknown) => reply.status(status).type('application/json; charset=utf-8').send(body);

/**
 * The capture box's brain dump (src/web/client/brain-dump/): the preview of a pasted list as the
 * API's POST /parse with split reads it, with each row's source line (where it starts and how long
 * it is in the text) so the page can edit and remove rows in the text itself; the batch capture of
 * that text (answering the new ids); and its undo, which deletes the whole batch at once and
 * answers the page the batch was captured on.
 */
export const webBrainDumpRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'batchCapture' | 'bulk' | 'clock' | 'limits' | 'quickAdd'>> = async (
  app,
  { batchCapture, bulk, clock, limits, quickAdd },
) => {
  app.post('/inbox/split', { schema: { body: TextBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return json(reply, 401, { error: 'Sign in again.' });
    const text = request.body.text ?? '';
    if (text.trim() === '') return json(reply, 200, { items: [] });
    try {
      // Line i is item i: the rules' split, or the model's of prose, as the batch will store it.
      const { items, lines } = await quickAdd.readBrainDump(user, text, { organize: organizing(user, request.body) });
      const dates = dateContext(request, user.timezone, clock);
      return json(reply, 200, {
        items: items.map((item, i) => ({
          title: item.title,
          source: { start: lines[i]!.start, length: lines[i]!.text.length },
          parent_index: item.parent_index,
          is_completed: item.is_completed,
          spans: item.spans.map((s) => (s.kind === 'date' ? { ...s, shown: formatDueAbsolute(s.value, dates, item.all_day) } : s)),
          all_day: item.all_day,
        })),
      });
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return json(reply, error.statusCode, { error: error.message });
      throw error;
    }
  });

  app.post('/inbox/capture-batch', { schema: { body: TextBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return json(reply, 401, { error: 'Sign in again.' });
    const limited = await overLimit(limits, user, reply);
    if (limited) return json(reply, 429, { error: limited });
    const projectId = request.body.project_id;
    try {
      const items = await batchCapture.captureBatch(user, {
        text: request.body.text ?? '',
        organize: organizing(user, request.body),
        ...(projectId && isUuid(projectId) ? { project_id: projectId } : {}),
      });
      return json(reply, 201, { ids: items.map((item) => item.id) });
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return json(reply, error.statusCode, { error: error.message });
      throw error;
    }
  });

  app.post('/inbox/capture-batch/undo', { schema: { body: UndoBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const ids = (request.body.ids ?? '').split(',').filter(isUuid).slice(0, SPLIT_ITEMS_MAX);
    if (ids.length === 0) return json(reply, 400, { error: 'Nothing to undo.' });
    // One transaction: the batch goes as a whole (subtasks with their heading); ids already gone are skipped.
    await bulk.run(user.id, { op: 'delete', ids });
    // The toast's Undo swaps in the page it lands on, as every undo in place does.
    return reply.redirect(safeReturn(request.body.return), 303);
  });
};
