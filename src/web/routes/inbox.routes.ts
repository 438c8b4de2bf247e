import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { splitCapturedText } from '../../lib/capture-text.js';
import { ifMatchPrecondition, itemEtag } from '../../modules/items/item-etag.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ItemPrecondition as Precondition } from '../../modules/items/item-etag.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { ItemView } from '../../modules/items/item-view.js';
import { actingUser, dateContext, overLimit, signInFirst } from '../acting.js';
import { parseDueInputs } from '../dates.js';
import { sentence } from '../format.js';
import {
  CAPTURED_COOKIE,
  createInboxRenderer,
  FLASH,
  ORGANIZE_COOKIE,
  ORGANIZED_COOKIE,
  PRO_HINT_COOKIE,
  type InboxSources,
  type InboxView,
  type ListKind,
} from '../inbox-render.js';
import { NOTES_MAX } from '../item-form.js';
import { decodeUndo, encodeUndo, proHint, undoPatch, type Undo } from '../organize-notice.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { createRowAnswer } from '../row-answer.js';
import { createSidebarAnswer } from '../sidebar-answer.js';
import { changedItem, createCapturedAnswer, readAt } from '../captured-answer.js';
import { literalOf } from '../literal-ranges.js';
import { CaptureBody } from './capture-body.js';
import { actedMessage, undoneMessage } from '../undo-message.js';
import { projectHeader } from '../views/projects.views.js';
import { CSRF_FIELD, field, queryOf, safeReturn } from './forms.js';

const ListQuery = Type.Object({ cursor: field(512) });
const ItemsQuery = Type.Object({
  q: field(500),
  project: field(100),
  tag: field(200),
  show: field(20),
  cursor: field(512),
});
const ActionBody = Type.Object({
  ...CSRF_FIELD,
  return: field(2000),
  version: field(200),
  project_id: field(100),
  due_date: field(40),
  due_time: field(20),
});
const UndoBody = Type.Object({ ...CSRF_FIELD, return: field(2000), undo: field(4000), keep: field(10) });
const UndoActionBody = Type.Object({ ...CSRF_FIELD, return: field(2000) });
const UndoParams = Type.Object({ undoId: Type.String({ maxLength: 100 }) });
const ItemParams = Type.Object({ id: Type.String({ maxLength: 100 }), action: Type.String({ maxLength: 30 }) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

const YEAR_S = 365 * 24 * 3600;
const UNDO_FIELDS = ['type', 'project_id', 'due_at', 'title'] as const;
const PREFERENCE = { httpOnly: true, sameSite: 'lax' as const, path: '/', maxAge: YEAR_S };

/**
 * The page script's actions in place send this header: they are answered `{ message, undo }` (what
 * the toast says, and the id of the kept inverse) instead of a redirect to the page (decision 0076).
 */
const IN_PLACE = 'cin-in-place';

export const inboxRoutes: FastifyPluginAsyncTypebox<InboxSources & Pick<Services, 'capture' | 'items' | 'limits' | 'undo'>> = async (app, options) => {
  const { capture, clock, items, limits, projects, tags, undo } = options;
  const inPlace = (request: FastifyRequest): boolean => request.headers[IN_PLACE] === '1';
  const projectName = async (userId: string, projectId: string) => (await projects.get(userId, projectId).catch(() => null))?.name ?? 'its project';
  const render = createInboxRenderer(options);

  /** The list a return target names, to render it again with a message. */
  async function listOf(request: FastifyRequest, user: AuthUser, back: string): Promise<Pick<InboxView, 'list' | 'query'>> {
    const path = back.split('?')[0]!;
    const query = queryOf(back);
    if (path.startsWith('/projects/')) {
      const project = await projects.get(user.id, path.slice('/projects/'.length));
      return { list: { kind: 'project', projectId: project.id, header: projectHeader(project, webContext(request).csrf) }, query };
    }
    if (path === '/filter' || path.startsWith('/filters/')) return { list: { kind: 'items' }, query: {} }; // a filter's rows stay in place, as a search's
    const kinds: Record<string, ListKind> = { '/upcoming': { kind: 'upcoming' }, '/inbox': { kind: 'inbox' }, '/items': { kind: 'items' } };
    return { list: kinds[path] ?? { kind: 'today' }, query };
  }

  /** The once-only note for Free users, after their first capture. */
  function proNote(request: FastifyRequest, reply: FastifyReply, user: AuthUser) {
    if (request.cookies[PRO_HINT_COOKIE] !== 'pending' || user.plan === 'pro') return {};
    void reply.setCookie(PRO_HINT_COOKIE, 'seen', PREFERENCE);
    return { notice: proHint };
  }

  const lists: [string, ListKind][] = [
    ['/', { kind: 'today' }],
    ['/upcoming', { kind: 'upcoming' }],
    ['/inbox', { kind: 'inbox' }],
  ];
  for (const [path, list] of lists) {
    app.get(path, { schema: { querystring: ListQuery } }, async (request, reply) => {
      const user = actingUser(request);
      if (!user) return path === '/' ? reply.redirect('/login', 303) : signInFirst(reply, path);
      return render(request, reply, user, { list, query: request.query, ...proNote(request, reply, user) });
    });
  }

  app.get('/items', { schema: { querystring: ItemsQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, '/items');
    return render(request, reply, user, { list: { kind: 'items' }, query: request.query, ...proNote(request, reply, user) });
  });

  app.post('/inbox/capture', { schema: { body: CaptureBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const { text = '', type, project_id: projectId } = request.body;
    const back = safeReturn(request.body.return);
    // A refused capture comes back on the page it was typed on, with the text in the box.
    const again = async (status: number, error: string) =>
      render(request, reply, user, { ...(await listOf(request, user, back)), status, capture: { draft: text, error } });
    const pro = user.plan === 'pro';
    // Pro users' choice is remembered; the hidden field tells an unticked box from an old form without one.
    const organize = pro && (request.body.organize_shown === '1' ? request.body.organize === '1' : request.cookies[ORGANIZE_COOKIE] !== '0');
    if (pro && request.body.organize_shown === '1') void reply.setCookie(ORGANIZE_COOKIE, organize ? '1' : '0', PREFERENCE);
    // The API's schema refuses blank text before its service runs; here the form says so.
    if (text.trim() === '') return again(400, 'Type something to capture.');
    // The box allows 100,000 characters; a paste past that is refused with the text kept, never cut short.
    if (Array.from(text).length > NOTES_MAX)
      return again(
        400,
        `That is ${Array.from(text).length.toLocaleString('en')} characters; a capture holds at most ${NOTES_MAX.toLocaleString('en')}. Shorten it, or split it into several captures.`,
      );
    const limited = await overLimit(limits, user, reply);
    if (limited) return again(429, limited);
    let captured;
    try {
      // Only what the user chose is sent: an unchosen project or type is left to quick add and the organizer.
      ({ item: captured } = await capture.capture(user, {
        text,
        ...(type === 'note' || type === 'todo' ? { type } : {}),
        ...(projectId ? { project_id: projectId } : {}),
        ...(request.body.client_id && isUuid(request.body.client_id) ? { client_id: request.body.client_id } : {}),
        ...readAt(request.body.typed_at, clock.now()),
        ...literalOf(request.body.literal),
        parse: true,
        organize,
      }));
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return again(error.statusCode, error.message);
    }
    if (captured.ai) {
      const inboxId = projectId ? null : await projects.inboxId(user.id);
      const before: Undo['before'] = {
        title: splitCapturedText(text).title,
        type: type === 'note' ? 'note' : 'todo',
        project_id: projectId || inboxId!,
        due_at: null,
      };
      // Undo puts back what was typed: what quick add read from the text as well as what the organizer decided.
      const applied = UNDO_FIELDS.filter((f) => captured[f] !== before[f]);
      const undo: Undo = { applied, before, etag: itemEtag(captured), reason: captured.ai.reason };
      if (inPlace(request)) return capturedInPlace(request, reply, user, captured, undo, back);
      // The next list page shows the notice once: the page the capture was made on, whatever it is.
      void reply.setCookie(ORGANIZED_COOKIE, `${captured.id}.${encodeUndo(undo)}`, FLASH);
      return reply.redirect(back, 303);
    }
    if (inPlace(request)) return capturedInPlace(request, reply, user, captured, null, back);
    void reply.setCookie(CAPTURED_COOKIE, captured.id, FLASH);
    // The next page shows it once (and marks it seen); the redirect stays where the form said.
    if (!pro && request.cookies[PRO_HINT_COOKIE] === undefined) void reply.setCookie(PRO_HINT_COOKIE, 'pending', PREFERENCE);
    return reply.redirect(back, 303);
  });

  app.post('/inbox/items/:id/undo-organize', { schema: { params: IdParams, body: UndoBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const undo = decodeUndo(request.body.undo);
    if (!undo) throw new PageError(400, 'Nothing to undo', 'This Undo button was not made by this site. Go back and try again.');
    try {
      await items.patch(user.id, request.params.id, undoPatch(undo, request.body.keep === 'date' ? 'date' : undefined), ifMatchPrecondition(undo.etag));
    } catch (error) {
      if (error instanceof AppError && error.code === 'precondition_failed') {
        throw new PageError(
          409,
          'Changed since',
          'The item was changed after it was captured, so the organizer’s choices were not undone. Open the item to edit it.',
        );
      }
      throw error;
    }
    return reply.redirect(`${safeReturn(request.body.return)}#item-${request.params.id}`, 303);
  });

  type Body = Static<typeof ActionBody>;
  type Action = (userId: string, id: string, precondition: Precondition | undefined, body: Body, user: AuthUser) => Promise<ItemView>;
  // Each answers the item as it left it: what the undo service reads the inverse from.
  const actions: Record<string, Action> = {
    toggle: (userId, id, p) => items.toggle(userId, id, p),
    archive: (userId, id, p) => items.archive(userId, id, p),
    unarchive: (userId, id, p) => items.unarchive(userId, id, p),
    move: (userId, id, p, body) => items.patch(userId, id, { project_id: body.project_id ?? '' }, p),
    due: (userId, id, p, body, user) => {
      const due = parseDueInputs(body.due_date ?? '', body.due_time ?? '', user.timezone);
      if ('error' in due) throw new PageError(400, 'Not a date', `${due.error} Go back and try again.`);
      // A date without a time is all-day; the row sends an all-day item's empty time back, so it stays one.
      return items.patch(userId, id, { due_at: due.iso, ...(due.iso ? { all_day: due.allDay } : {}) }, p);
    },
  };
  const both =
    (first: Precondition | undefined, second: Precondition): Precondition =>
    (current) => (first?.(current), second(current));

  const rowAnswer = createRowAnswer({ projects, items, clock, listOf });
  const sidebarOf = createSidebarAnswer({ projects, tags });
  const capturedInPlace = createCapturedAnswer({ projects, clock, rowAnswer, sidebarOf });

  /** Runs the action; in place, through the undo service, answering what the toast says and the undo's id. */
  async function perform(request: FastifyRequest, params: Static<typeof ItemParams>, body: Body, reply: FastifyReply, user: AuthUser) {
    const { id, action } = params;
    // The item page's buttons carry the version it shows: an item changed since is not archived or deleted blindly.
    const precondition = body.version ? ifMatchPrecondition(body.version) : undefined;
    if (action === 'delete') {
      await items.remove(user.id, id, precondition);
      return inPlace(request) ? reply.send({ message: 'Deleted.', undo: null, sidebar: await sidebarOf(user.id, safeReturn(body.return)) }) : null;
    }
    const run = Object.hasOwn(actions, action) ? actions[action]! : undefined;
    if (!run) throw new AppError('not_found', 'no such action');
    if (!inPlace(request)) {
      await run(user.id, id, precondition, body, user);
      return null;
    }
    const acted = await undo.act(user.id, id, (p) => run(user.id, id, both(precondition, p), body, user));
    const dates = dateContext(request, user.timezone, clock);
    const message = actedMessage(acted.undo?.kind ?? null, acted.item, await projectName(user.id, acted.item.project_id), dates);
    const back = safeReturn(body.return);
    const [row, sidebar] = await Promise.all([rowAnswer(request, user, acted.item, back), sidebarOf(user.id, back)]);
    return reply.send({ message, undo: acted.undo?.id ?? null, item: changedItem(acted.item), row, sidebar });
  }

  app.post('/inbox/undo/:undoId', { schema: { params: UndoParams, body: UndoActionBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    let done;
    try {
      done = await undo.undo(user.id, request.params.undoId);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      const message =
        error.code === 'precondition_failed'
          ? 'Not undone: the item was changed after that action. Open it to see how it is now.'
          : 'Not undone: it was undone already, or it is too old to undo.';
      if (inPlace(request)) return reply.code(error.code === 'precondition_failed' ? 409 : 404).send({ message });
      throw new PageError(error.code === 'precondition_failed' ? 409 : 404, 'Not undone', message);
    }
    const dates = dateContext(request, user.timezone, clock);
    const message = undoneMessage(done.inverse, done.item, await projectName(user.id, done.item.project_id), dates);
    if (inPlace(request)) {
      const back = safeReturn(request.body.return);
      const [row, sidebar] = await Promise.all([rowAnswer(request, user, done.item, back), sidebarOf(user.id, back)]);
      return reply.send({ message, item: changedItem(done.item), row, sidebar });
    }
    return reply.redirect(`${safeReturn(request.body.return)}#item-${done.item.id}`, 303);
  });

  app.post('/inbox/items/:id/:action', { schema: { params: ItemParams, body: ActionBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    if (request.params.action !== 'delete' && !Object.hasOwn(actions, request.params.action)) throw new AppError('not_found', 'no such action');
    const limited = await overLimit(limits, user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    try {
      const answered = await perform(request, request.params, request.body, reply, user);
      if (answered) return answered;
    } catch (error) {
      if (error instanceof AppError && error.code === 'precondition_failed') {
        throw new PageError(
          409,
          'Changed since',
          'The item was changed after this page was loaded, so nothing was done. Go back and reload it to see the change.',
        );
      }
      if (error instanceof AppError && error.statusCode === 400) throw new PageError(400, 'Not changed', `${sentence(error.message)} Go back and try again.`);
      throw error;
    }
    const back = safeReturn(request.body.return);
    // Deleting from the item's own page goes back to the inbox: the page is gone.
    if (request.params.action === 'delete') return reply.redirect(back.startsWith(`/inbox/items/${request.params.id}`) ? '/' : back, 303);
    // Back to the row acted on: the browser scrolls to it and focuses it (it has tabindex=-1) instead
    // of the capture box, so keyboard users keep their place.
    return reply.redirect(back.startsWith('/inbox/items/') ? back : `${back}#item-${request.params.id}`, 303);
  });
};
