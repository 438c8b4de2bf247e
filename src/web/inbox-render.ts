import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../container.js';
import type { AuthUser } from '../modules/users/auth-user.js';
import { dateContext } from './acting.js';
import type { SafeHtml } from './html.js';
import { filtersOf, inboxUrl, searchOf } from './inbox-query.js';
import { sendPage } from './layout.js';
import { webContext } from './session.js';
import { inboxPage } from './views/inbox.views.js';

/** The organizer checkbox is remembered per browser in this cookie ("1" or "0"). */
export const ORGANIZE_COOKIE = 'cin_organize';
/** Set once a free user has seen what Pro's organizer would do. */
export const PRO_HINT_COOKIE = 'cin_pro_hint';

export interface InboxView {
  query: { q?: string; project?: string; tag?: string; show?: string; cursor?: string };
  /** `/` or a project's page. */
  base?: string;
  header?: SafeHtml;
  notice?: SafeHtml;
  status?: number;
  error?: string;
  /** The capture that failed: its text back in the box, its message next to it. */
  capture?: { draft: string; error: string };
}

export type InboxRenderer = (request: FastifyRequest, reply: FastifyReply, user: AuthUser, view: InboxView) => Promise<FastifyReply>;

/** What the inbox list reads: the routes that render it take these among their own options. */
export type InboxSources = Pick<Services, 'clock' | 'projects' | 'search' | 'tags' | 'voice'>;

/** The inbox list as the inbox and project pages show it: items through the search service, projects and tags beside. */
export function createInboxRenderer({ clock, projects, search, tags, voice }: InboxSources): InboxRenderer {
  return async (request, reply, user, view) => {
    const filters = filtersOf(view.query);
    const base = view.base ?? '/';
    const { query, internal } = searchOf(filters, view.query.cursor);
    const [page, projectList, tagList] = await Promise.all([search.search(user.id, query, internal), projects.list(user.id), tags.list(user.id)]);
    const pro = user.plan === 'pro';
    const html = inboxPage({
      user,
      csrf: webContext(request).csrf,
      filters,
      items: page.items,
      projects: projectList,
      tags: tagList,
      dates: dateContext(request, user.timezone, clock),
      nextPage: page.next_cursor ? inboxUrl(filters, page.next_cursor, base) : null,
      self: inboxUrl(filters, view.query.cursor, base),
      base,
      capture: {
        organize: pro ? { checked: request.cookies[ORGANIZE_COOKIE] !== '0' } : null,
        voice: pro
          ? {
              unavailable:
                voice.engineName === null
                  ? `Voice capture is not available: this server cannot turn speech into text (${voice.unavailableReason ?? 'no speech engine'}).`
                  : null,
            }
          : null,
        ...(view.capture ?? {}),
      },
      ...(view.header ? { header: view.header } : {}),
      ...(view.notice ? { notice: view.notice } : {}),
      ...(view.error ? { error: view.error } : {}),
    });
    return sendPage(reply, view.status ?? 200, html);
  };
}
