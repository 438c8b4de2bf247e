import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { ItemPage } from '../../modules/filters/filter-items.js';
import type { ItemView } from '../../modules/items/item-view.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { actingUser, dateContext, overLimit, signInFirst } from '../acting.js';
import { sendPage } from '../layout.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { itemName } from '../views/item-row.views.js';
import { filterPage, filtersIndexPage, savedViewPage, type FilterDraft, type FilterListing, type QueryError } from '../views/filters.views.js';
import { CSRF_FIELD, field } from './forms.js';

type FilterPageServices = Pick<Services, 'clock' | 'filters' | 'items' | 'limits' | 'projects'>;

const FilterQuery = Type.Object({ q: field(4000), cursor: field(512) });
const CursorQuery = Type.Object({ cursor: field(512) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const FilterBody = Type.Object({ ...CSRF_FIELD, name: field(1000), query: field(4000), color: field(20) });
const MoveBody = Type.Object({ ...CSRF_FIELD, position: field(10) });
const DeleteBody = Type.Object({ ...CSRF_FIELD });

/** The forms' color: a preset or kept custom `#rrggbb`, or none. */
const COLOR = /^#[0-9a-fA-F]{6}$/;

/** A filter service 400 as the page shows it: the query's (with the caret's place) or another field's. */
function refusal(error: unknown): { field: string | undefined; message: string; position: number | null } {
  if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
  const detail = error.details?.[0];
  return { field: detail?.field, message: detail?.message ?? error.message, position: detail?.position ?? null };
}

/**
 * The filter pages (issue 48): /filter?q= (the box and what it picks), /filters (the saved views,
 * in order), /filters/{id} (a saved view's items) and their forms. A page lists one page of items
 * through the same service as GET /items?filter=, never the whole account.
 */
export const filterPageRoutes: FastifyPluginAsyncTypebox<FilterPageServices> = async (app, { clock, filters, items, limits, projects }) => {
  /** Rows as every list shows them; a subtask shown alone names its parent. */
  async function listingOf(request: FastifyRequest, user: AuthUser, page: ItemPage, self: string, next: (cursor: string) => string): Promise<FilterListing> {
    const projectList = await projects.list(user.id);
    const parentIds = [...new Set(page.items.map((i) => i.parent_id).filter((id): id is string => id !== null))].slice(0, 50);
    const parents = await Promise.all(parentIds.map((id) => items.get(user.id, id).catch(() => null)));
    return {
      items: page.items,
      nextPage: page.next_cursor ? next(page.next_cursor) : null,
      row: {
        csrf: webContext(request).csrf,
        self,
        dates: dateContext(request, user.timezone, clock),
        projects: projectList,
        projectNames: new Map(projectList.map((p) => [p.id, p.name])),
        parentNames: new Map(parents.filter((p): p is ItemView => p !== null).map((p) => [p.id, itemName(p)])),
      },
    };
  }

  const filterUrl = (q: string, cursor?: string) => `/filter?q=${encodeURIComponent(q)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

  /** The /filter page for `q`: its items, or the parser's error with its place. */
  async function renderFilter(request: FastifyRequest, user: AuthUser, q: string, cursor: string | undefined, draft?: FilterDraft) {
    const base = { user, csrf: webContext(request).csrf, query: q };
    if (q.trim() === '') return { status: 200, page: filterPage({ ...base, listing: null }) };
    try {
      const page = await filters.query.items(user, q, cursor ? { cursor } : {});
      const listing = await listingOf(request, user, page, filterUrl(q, cursor), (c) => filterUrl(q, c));
      return { status: draft ? 400 : 200, page: filterPage({ ...base, listing, ...(draft ? { draft } : {}) }) };
    } catch (error) {
      const { message, position } = refusal(error);
      return { status: 400, page: filterPage({ ...base, listing: null, error: { message, position } }) };
    }
  }

  /** A saved view's page; a query that no longer reads (a project renamed since) says so instead of its items. */
  async function renderView(request: FastifyRequest, user: AuthUser, id: string, cursor: string | undefined, draft?: FilterDraft) {
    const view = await filters.get(user.id, id);
    const self = `/filters/${view.id}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
    let listing: FilterListing | null = null;
    let error: QueryError | undefined;
    try {
      const page = await filters.items(user, view.id, cursor ? { cursor } : {});
      listing = await listingOf(request, user, page, self, (c) => `/filters/${view.id}?cursor=${encodeURIComponent(c)}`);
    } catch (e) {
      const r = refusal(e);
      if (r.field !== 'filter') throw e;
      error = { message: r.message, position: r.position };
    }
    const csrf = webContext(request).csrf;
    return savedViewPage({ user, csrf, view, listing, ...(error ? { error } : {}), ...(draft ? { draft } : {}) });
  }

  app.get('/filter', { schema: { querystring: FilterQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, '/filters');
    const { status, page } = await renderFilter(request, user, request.query.q ?? '', request.query.cursor);
    return sendPage(reply, status, page);
  });

  app.get('/filters', async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, '/filters');
    return sendPage(reply, 200, filtersIndexPage({ user, csrf: webContext(request).csrf, views: await filters.list(user.id) }));
  });

  app.get('/filters/:id', { schema: { params: IdParams, querystring: CursorQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, `/filters/${request.params.id}`);
    return sendPage(reply, 200, await renderView(request, user, request.params.id, request.query.cursor));
  });

  /** The user acting on a form, within the plan's limits. */
  async function formUser(request: FastifyRequest, reply: Parameters<typeof overLimit>[2]): Promise<AuthUser> {
    const user = actingUser(request);
    if (!user) throw new PageError(401, 'Please sign in', 'Your session has ended. Sign in and try again.');
    const limited = await overLimit(limits, user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    return user;
  }

  const colorOf = (raw: string | undefined): string | null | undefined => {
    if (raw === undefined || raw === '') return null;
    return COLOR.test(raw) ? raw : undefined;
  };

  /** The form's fields as the service takes them (`color` undefined when it is not a color), and the form again with an error. */
  const formOf = (body: { name?: string | undefined; query?: string | undefined; color?: string | undefined }) => {
    const { name = '', query = '', color: rawColor } = body;
    const draft = (error: string, position?: number | null): FilterDraft => ({
      name,
      query,
      color: rawColor ?? '',
      error,
      ...(position === undefined ? {} : { position }),
    });
    return { name, query, color: colorOf(rawColor), draft };
  };

  app.post('/filters', { schema: { body: FilterBody } }, async (request, reply) => {
    const user = await formUser(request, reply);
    const { name, query, color, draft } = formOf(request.body);
    if (color === undefined) {
      const again = await renderFilter(request, user, query, undefined, draft('Choose one of the colors.'));
      return sendPage(reply, 400, again.page);
    }
    try {
      const view = await filters.create(user, { name, query, color });
      return reply.redirect(`/filters/${view.id}`, 303);
    } catch (error) {
      const r = refusal(error);
      // A query refused here was typed in the box: the box's own error shows it.
      const again = await renderFilter(request, user, query, undefined, r.field === 'filter' || r.field === 'query' ? undefined : draft(r.message));
      return sendPage(reply, 400, again.page);
    }
  });

  app.post('/filters/:id', { schema: { params: IdParams, body: FilterBody } }, async (request, reply) => {
    const user = await formUser(request, reply);
    const { name, query, color, draft } = formOf(request.body);
    if (color === undefined) return sendPage(reply, 400, await renderView(request, user, request.params.id, undefined, draft('Choose one of the colors.')));
    try {
      const view = await filters.update(user, request.params.id, { name, query, color });
      return reply.redirect(`/filters/${view.id}`, 303);
    } catch (error) {
      const r = refusal(error);
      const d = r.field === 'filter' || r.field === 'query' ? draft(r.message, r.position) : draft(r.message);
      return sendPage(reply, 400, await renderView(request, user, request.params.id, undefined, d));
    }
  });

  app.post('/filters/:id/move', { schema: { params: IdParams, body: MoveBody } }, async (request, reply) => {
    const user = await formUser(request, reply);
    const position = Number(request.body.position);
    if (!Number.isInteger(position) || position < 0 || position > 1000)
      throw new PageError(400, 'Not moved', 'That place is not in the list. Go back and try again.');
    const view = await filters.update(user, request.params.id, { position });
    return reply.redirect(`/filters#view-${view.id}`, 303);
  });

  app.post('/filters/:id/delete', { schema: { params: IdParams, body: DeleteBody } }, async (request, reply) => {
    const user = await formUser(request, reply);
    await filters.remove(user.id, request.params.id);
    return reply.redirect('/filters', 303);
  });
};
