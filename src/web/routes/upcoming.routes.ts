import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import type { ItemView } from '../../modules/items/item-view.js';
import { instantOf, wallTimeAt } from '../../lib/dates/zoned-time.js';
import { actingUser, dateContext, overLimit } from '../acting.js';
import { dayStart, overdueTest } from '../dates.js';
import { PageError } from '../page-error.js';
import { CSRF_FIELD, field } from './forms.js';

const IN_PLACE = 'cin-in-place';
/** One click reschedules at most this many items (the Overdue section's rows); the rest stay overdue. */
const RESCHEDULE_MAX = 500;
const UndoBody = Type.Object({ ...CSRF_FIELD, undo: field(RESCHEDULE_MAX * 40) });

/**
 * Upcoming's "Reschedule all overdue to today" (issue 47 item 10): one action, undoable. Each item
 * is rescheduled through the undo service (decision 0076), which keeps its inverse; the answer's
 * Undo sends back the list of those ids, undone in one request. A timed item keeps its time of day
 * when that is still ahead today, otherwise it becomes due today as a day (all-day): never overdue
 * again the moment it is moved.
 */
export const upcomingRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'clock' | 'items' | 'limits' | 'undo'>> = async (app, { clock, items, limits, undo }) => {
  app.post('/upcoming/reschedule-overdue', { schema: { body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const limited = await overLimit(limits, user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    const dates = dateContext(request, user.timezone, clock);
    const overdue = (await items.agenda(user.id, { dueBefore: dayStart(dates, 1).toISOString(), limit: RESCHEDULE_MAX })).filter(overdueTest(dates));
    const today = wallTimeAt(user.timezone, dates.now);
    const undoIds: string[] = [];
    for (const item of overdue) {
      const acted = await undo.act(user.id, item.id, (p) => items.patch(user.id, item.id, toToday(item, today, user.timezone, dates.now), p)).catch(() => null);
      if (acted?.undo) undoIds.push(acted.undo.id);
    }
    const message = overdue.length === 0 ? 'Nothing is overdue.' : `Rescheduled ${undoIds.length} overdue ${undoIds.length === 1 ? 'item' : 'items'} to today.`;
    if (request.headers[IN_PLACE] !== '1') return reply.redirect('/upcoming', 303);
    return reply.send({ message, undo: undoIds.length > 0 ? undoIds.join(',') : null });
  });

  app.post('/upcoming/reschedule-overdue/undo', { schema: { body: UndoBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const ids = (request.body.undo ?? '')
      .split(',')
      .filter((id) => id !== '')
      .slice(0, RESCHEDULE_MAX);
    let undone = 0;
    for (const id of ids) {
      // An item changed since keeps its change (the undo service refuses its inverse).
      const done = await undo.undo(user.id, id).then(
        () => true,
        () => false,
      );
      if (done) undone += 1;
    }
    const message =
      undone === ids.length
        ? `Undone: ${undone} ${undone === 1 ? 'item is' : 'items are'} due as before.`
        : `Undone for ${undone} of ${ids.length}: the others were changed since.`;
    if (request.headers[IN_PLACE] !== '1') return reply.redirect('/upcoming', 303);
    return reply.send({ message, undo: null });
  });
};

/** Today at the item's time of day when still ahead, else today as a day. */
function toToday(item: ItemView, today: ReturnType<typeof wallTimeAt>, zone: string, now: Date): { due_at: string; all_day: boolean } {
  const dayStartWall = { ...today, hour: 0, minute: 0 };
  if (!item.all_day && item.due_at) {
    const was = wallTimeAt(zone, new Date(item.due_at));
    const at = instantOf(zone, { ...today, hour: was.hour, minute: was.minute });
    if (at.getTime() > now.getTime()) return { due_at: at.toISOString(), all_day: false };
  }
  return { due_at: instantOf(zone, dayStartWall).toISOString(), all_day: true };
}
