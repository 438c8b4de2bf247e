import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../container.js';
import type { Clock } from '../lib/clock.js';
import { itemEtag } from '../modules/items/item-etag.js';
import type { ItemView } from '../modules/items/item-view.js';
import type { AuthUser } from '../schemas/auth-user.js';
import { dateContext } from './acting.js';
import { capturedMessage } from './inbox-notices.js';
import { encodeUndo, type Undo } from './organize-notice.js';
import type { RowAnswer } from './row-answer.js';
import type { SidebarAnswer } from './sidebar-answer.js';

/** How far back an offline capture's typed time is believed; older, or ahead of the clock, its dates are read now. */
const TYPED_AT_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
const TYPED_AT_SKEW_MS = 5 * 60 * 1000;

/**
 * An offline capture's `typed_at` as the capture's `read_at` (decision 0085): quick add and the
 * organizer read "tomorrow" at the moment it was typed. A time that is not one, in the future
 * (beyond a clock's skew) or over 30 days old is not believed: the dates are read now.
 */
export function readAt(value: string | undefined, now: Date): { read_at?: Date } {
  if (!value) return {};
  const at = new Date(value).getTime();
  if (Number.isNaN(at) || at > now.getTime() + TYPED_AT_SKEW_MS || at < now.getTime() - TYPED_AT_MAX_AGE_MS) return {};
  return { read_at: new Date(at) };
}

/** What an answer in place says of the item: the script skips the live echo of this very change, and an offline action queued after it is made on this version. */
export const changedItem = (item: ItemView) => ({ id: item.id, updated_at: item.updated_at, version: itemEtag(item) });

/**
 * The answer in place to a capture (the offline outbox's replay sends the capture in place): where
 * it went (project, date) for the toast, its row, and the form its Undo posts: putting back what
 * was typed for a filing, removing it for a plain capture.
 */
export function createCapturedAnswer(deps: { projects: Services['projects']; clock: Clock; rowAnswer: RowAnswer; sidebarOf: SidebarAnswer }) {
  const projectName = async (userId: string, projectId: string) => (await deps.projects.get(userId, projectId).catch(() => null))?.name ?? 'its project';
  return async (request: FastifyRequest, reply: FastifyReply, user: AuthUser, item: ItemView, undo: Undo | null, back: string) => {
    const dates = dateContext(request, user.timezone, deps.clock);
    const organized = undo !== null && undo.applied.length > 0;
    const message = capturedMessage(item, await projectName(user.id, item.project_id), dates, undo?.applied.includes('project_id') ?? false);
    const undoForm = organized
      ? { url: `/inbox/items/${item.id}/undo-organize`, fields: [['undo', encodeUndo(undo)]] }
      : { url: `/inbox/items/${item.id}/delete`, fields: [] };
    const [row, sidebar] = await Promise.all([deps.rowAnswer(request, user, item, back), deps.sidebarOf(user.id, back)]);
    return reply.send({ message, undo: null, undo_form: undoForm, item: changedItem(item), row, sidebar });
  };
}
