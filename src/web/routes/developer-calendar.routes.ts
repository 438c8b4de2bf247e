import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { NewFeed } from '../../modules/feeds/feeds.service.js';
import { sendPage } from '../layout.js';
import { webContext } from '../session.js';
import { CALENDAR_KEY_LABEL, calendarPage, type CalendarPageData, type FeedSource } from '../views/developer-calendar.views.js';
import { CSRF_FIELD, field } from './forms.js';

/*
 * Developer settings → "Connect a calendar app" (/settings/calendar): an app password for CalDAV
 * (read and write, labelled "Calendar app") shown once, and the user's feeds made, rotated and
 * deleted through the same service as /api/v1/feeds. Plain forms, redirected after success.
 */

const PAGE = '/settings/calendar';
const NOTICES: Record<string, string> = {
  made: 'Feed made. Copy its URL into your calendar app.',
  rotated: 'The feed has a new URL; the old one has stopped.',
  deleted: 'Feed deleted; its URL has stopped.',
};

const DoneQuery = Type.Object({ done: field(20) });
const FeedBody = Type.Object({ ...CSRF_FIELD, source: field(100), as: field(10) });
const FeedParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** The form's `source` as the service's input: `all`, `project:{id}` or `filter:{id}`; anything else is undefined. */
function sourceOf(value: string | undefined): Omit<NewFeed, 'as'> | undefined {
  if (value === 'all') return { all: true };
  const match = /^(project|filter):(.{1,80})$/.exec(value ?? '');
  if (!match) return undefined;
  return match[1] === 'project' ? { project_id: match[2]! } : { filter_id: match[2]! };
}

export const developerCalendarRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'feeds' | 'filters' | 'keys' | 'projects'> & { publicUrl: string }> = async (
  app,
  { feeds, filters, keys, projects, publicUrl },
) => {
  const base = publicUrl.replace(/\/+$/, '');

  async function render(request: FastifyRequest, reply: FastifyReply, user: SessionUser, status: number, extra: Partial<CalendarPageData> = {}) {
    const [feedList, projectList, filterList] = await Promise.all([feeds.list(user.id), projects.list(user.id), filters.list(user.id)]);
    const sources: FeedSource[] = [
      { value: 'all', label: 'Everything' },
      ...projectList.map((p) => ({ value: `project:${p.id}`, label: `Project ${p.name}` })),
      ...filterList.map((f) => ({ value: `filter:${f.id}`, label: `Filter ${f.name}` })),
    ];
    return sendPage(reply, status, calendarPage({ user, csrf: webContext(request).csrf, publicUrl: base, feeds: feedList, sources, ...extra }));
  }

  const signInFirst = (reply: FastifyReply) => reply.redirect(`/login?next=${encodeURIComponent(PAGE)}`, 303);

  app.get(PAGE, { schema: { querystring: DoneQuery } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    return render(request, reply, user, 200, notice ? { notice } : {});
  });

  app.post(`${PAGE}/key`, { schema: { body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    const { token } = await keys.mint(user.id, CALENDAR_KEY_LABEL, { scopes: ['read', 'write'] });
    // The password is in this response only; not redirected, so it is never kept in a URL or history entry.
    return render(request, reply, user, 200, { minted: token });
  });

  /** A refusal of the service (400, 404) comes back as the page with its message; anything else is the error page. */
  async function orPage(request: FastifyRequest, reply: FastifyReply, user: SessionUser, run: () => Promise<string>) {
    try {
      return reply.redirect(`${PAGE}?done=${await run()}`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return render(request, reply, user, error.statusCode, { error: error.message });
    }
  }

  app.post(`${PAGE}/feeds`, { schema: { body: FeedBody } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    const source = sourceOf(request.body.source);
    const as = request.body.as === 'todos' ? 'todos' : request.body.as === 'events' ? 'events' : undefined;
    if (!source || !as) return render(request, reply, user, 400, { error: 'Choose what the feed shows and how.' });
    return orPage(request, reply, user, async () => {
      await feeds.create(user.id, { ...source, as });
      return 'made';
    });
  });

  app.post(`${PAGE}/feeds/:id/rotate`, { schema: { params: FeedParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    return orPage(request, reply, user, async () => {
      await feeds.rotate(user.id, request.params.id);
      return 'rotated';
    });
  });

  app.post(`${PAGE}/feeds/:id/delete`, { schema: { params: FeedParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    return orPage(request, reply, user, async () => {
      await feeds.remove(user.id, request.params.id);
      return 'deleted';
    });
  });
};
