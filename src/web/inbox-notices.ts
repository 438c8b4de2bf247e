import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../container.js';
import { AppError } from '../errors.js';
import type { ItemView } from '../modules/items/item-view.js';
import type { AuthUser } from '../schemas/auth-user.js';
import { dueLabel, formatDueAbsolute, type DateContext } from './dates.js';
import { html, type SafeHtml } from './html.js';
import { decodeUndo, organizedNotice } from './organize-notice.js';
import { webContext } from './session.js';
import { itemName } from './views/item-row.views.js';

/*
 * The notices a capture leaves for the next list page, in short-lived cookies the capture route
 * sets (routes/inbox.routes.ts) and these read once and clear.
 */

/**
 * What the organizer did with the last capture, shown once by the next list page: `<item id>.<undo>`.
 * A cookie rather than the URL, so Back does not show the notice again and no long `undo=` sits in the address bar.
 */
export const ORGANIZED_COOKIE = 'cin_organized';
/** The last plain capture's id, so a list it does not appear on (Today, say) says where it went. */
export const CAPTURED_COOKIE = 'cin_captured';

/** The list page's one-time notices about the last capture. */
export function createFlashNotices({ items, projects }: Pick<Services, 'items' | 'projects'>) {
  /** The organized notice the last capture left in its cookie, once. */
  async function organized(request: FastifyRequest, reply: FastifyReply, user: AuthUser, dates: DateContext, self: string): Promise<SafeHtml | undefined> {
    const flash = request.cookies[ORGANIZED_COOKIE];
    if (!flash) return undefined;
    void reply.clearCookie(ORGANIZED_COOKIE, { path: '/' });
    const dot = flash.indexOf('.');
    const undo = decodeUndo(flash.slice(dot + 1));
    if (dot < 0 || !undo) return undefined;
    const item = await items.get(user.id, flash.slice(0, dot)).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    });
    if (!item) return undefined;
    const project = await projects.get(user.id, item.project_id);
    return organizedNotice({ item, undo, projectName: project.name, dates, csrf: webContext(request).csrf, self });
  }

  /** "Captured “Buy milk” in Inbox.", once, when the list shown does not hold it. */
  async function captured(request: FastifyRequest, reply: FastifyReply, user: AuthUser, shown: ItemView[]): Promise<SafeHtml | undefined> {
    const id = request.cookies[CAPTURED_COOKIE];
    if (!id) return undefined;
    void reply.clearCookie(CAPTURED_COOKIE, { path: '/' });
    if (shown.some((i) => i.id === id)) return undefined;
    const item = await items.get(user.id, id).catch(() => null);
    if (!item) return undefined;
    const project = await projects.get(user.id, item.project_id);
    return html`<div class="alert success captured" role="status"><p>Captured <a href="/inbox/items/${item.id}">“${itemName(item)}”</a> in <a href="/projects/${project.id}">${project.name}</a>.</p></div>`;
  }

  return { organized, captured };
}

/**
 * Where a capture replayed from the offline outbox went, for the toast (decision 0085): its
 * project, and its date as read when it was typed, in the words its row uses ("today", "tomorrow
 * 17:00", issue 47) with the day after them, so the note and the row never read differently:
 * "Saved “Call Sam” in Work, due tomorrow 17:00 (Fri 27 Nov)."
 */
export function capturedMessage(item: ItemView, projectName: string, dates: DateContext, filed: boolean): string {
  if (!item.due_at) return `${filed ? 'Filed' : 'Saved'} “${itemName(item)}” in ${projectName}.`;
  const label = dueLabel(item.due_at, dates, item.all_day);
  const day = formatDueAbsolute(item.due_at, dates, true);
  // Typed days ago, it may be overdue at the sync: said as the row says it.
  const due = label.overdue ? `${label.text} (due ${day})` : `due ${label.text.startsWith(day) ? label.text : `${label.text} (${day})`}`;
  return `${filed ? 'Filed' : 'Saved'} “${itemName(item)}” in ${projectName}, ${due}.`;
}
