import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { AuthUser } from '../../modules/users/auth-user.js';
import { sendPage } from '../layout.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { inboxPage, type InboxFilters, type Show } from '../views/inbox.views.js';
import { CSRF_FIELD, field, safeReturn } from './forms.js';

const InboxQuery = Type.Object({ q: field(200), project: field(100), tag: field(100), show: field(20), cursor: field(512) });
const CaptureBody = Type.Object({ ...CSRF_FIELD, text: field(100_000 + 1000), type: field(10), project_id: field(100), return: field(2000) });
const ActionBody = Type.Object({ ...CSRF_FIELD, return: field(2000) });
const ItemParams = Type.Object({ id: Type.String({ maxLength: 100 }), action: Type.String() });

const SHOWS: readonly Show[] = ['active', 'archived', 'all'];
const ARCHIVED_BY_SHOW: Record<Show, boolean | undefined> = { active: false, archived: true, all: undefined };

function filtersOf(query: { q?: string; project?: string; tag?: string; show?: string }): InboxFilters {
  const show = SHOWS.find((s) => s === query.show) ?? 'active';
  return { q: (query.q ?? '').trim(), project: query.project ?? '', tag: query.tag ?? '', show };
}

/** The filters back as a query string, so paging and forms keep them. */
function inboxUrl(f: InboxFilters, cursor?: string): string {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.project) params.set('project', f.project);
  if (f.tag) params.set('tag', f.tag);
  if (f.show !== 'active') params.set('show', f.show);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

/** A web session acts as its user without an API key. */
const actingUser = (request: FastifyRequest): AuthUser | null => {
  const user = webContext(request).user;
  return user ? { ...user, keyId: null } : null;
};

export const inboxRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { browse, projects, tags, items, limits } = services;

  /**
   * A change made from the web counts against the plan's limits exactly like the same change
   * through the API (one request each), so the web app is no way around them. Null when allowed.
   */
  async function overLimit(user: AuthUser, reply: FastifyReply): Promise<string | null> {
    const decision = await limits.checkUserRequest(user);
    if (decision.allowed) return null;
    const retryAfter = decision.retryAfter ?? decision.windows[0].reset;
    void reply.header('retry-after', String(retryAfter));
    return `You reached the ${decision.scope === 'day' ? 'daily' : 'per-minute'} limit of the ${user.plan} plan. Try again in ${retryAfter} seconds.`;
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    user: AuthUser,
    query: { q?: string; project?: string; tag?: string; show?: string; cursor?: string },
    status = 200,
    problem?: { error: string; draft: string },
  ): Promise<FastifyReply> {
    const filters = filtersOf(query);
    const [page, projectList, tagList] = await Promise.all([
      browse.browse(user.id, {
        ...(filters.q ? { q: filters.q } : {}),
        ...(filters.project ? { project_id: filters.project } : {}),
        ...(filters.tag ? { tag: filters.tag } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        archived: ARCHIVED_BY_SHOW[filters.show],
      }),
      projects.list(user.id),
      tags.list(user.id),
    ]);
    const page$ = inboxPage({
      user,
      csrf: webContext(request).csrf,
      filters,
      items: page.items,
      projects: projectList.map(({ id, name }) => ({ id, name })),
      tags: tagList.map((t) => t.name),
      nextPage: page.next_cursor ? inboxUrl(filters, page.next_cursor) : null,
      self: inboxUrl(filters, query.cursor),
      ...(problem ? { error: problem.error, draft: problem.draft } : {}),
    });
    return sendPage(reply, status, page$);
  }

  app.get('/', { schema: { querystring: InboxQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    return render(request, reply, user, request.query);
  });

  app.post('/inbox/capture', { schema: { body: CaptureBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const { text = '', type, project_id: projectId } = request.body;
    const back = safeReturn(request.body.return);
    const backQuery = Object.fromEntries(new URLSearchParams(back.slice(2)));
    // The API's schema refuses blank text before its service runs; here the form says so.
    if (text.trim() === '') return render(request, reply, user, backQuery, 400, { error: 'Type something to capture.', draft: text });
    const limited = await overLimit(user, reply);
    if (limited) return render(request, reply, user, backQuery, 429, { error: limited, draft: text });
    try {
      await items.capture(user, {
        text,
        type: type === 'note' ? 'note' : 'todo',
        ...(projectId ? { project_id: projectId } : {}),
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return render(request, reply, user, backQuery, error.statusCode, { error: error.message, draft: text });
    }
    return reply.redirect(back, 303);
  });

  const actions = {
    toggle: items.toggle,
    archive: items.archive,
    unarchive: items.unarchive,
    delete: items.remove,
  } as const;

  app.post('/inbox/items/:id/:action', { schema: { params: ItemParams, body: ActionBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const run = Object.hasOwn(actions, request.params.action) ? actions[request.params.action as keyof typeof actions] : undefined;
    if (!run) throw new AppError('not_found', 'no such action');
    const limited = await overLimit(user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    await run(user.id, request.params.id);
    // Back to the row acted on: the browser scrolls to it and focuses it (it has tabindex=-1) instead
    // of the capture box, so keyboard users keep their place.
    const anchor = request.params.action === 'delete' ? '' : `#item-${request.params.id}`;
    return reply.redirect(`${safeReturn(request.body.return)}${anchor}`, 303);
  });
};
