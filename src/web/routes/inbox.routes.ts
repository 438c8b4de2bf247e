import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { splitCapturedText } from '../../modules/items/capture-text.js';
import { ifMatchPrecondition, itemEtag } from '../../modules/items/item-etag.js';
import { actingUser, dateContext, overLimit } from '../acting.js';
import { createInboxRenderer, ORGANIZE_COOKIE, PRO_HINT_COOKIE, type InboxSources } from '../inbox-render.js';
import { decodeUndo, encodeUndo, organizedNotice, proHint, undoPatch, type Undo } from '../organize-notice.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { CSRF_FIELD, field, queryOf, safeReturn } from './forms.js';

const InboxQuery = Type.Object({
  q: field(500),
  project: field(100),
  tag: field(200),
  show: field(20),
  cursor: field(512),
  organized: field(100),
  undo: field(4000),
});
const CaptureBody = Type.Object({
  ...CSRF_FIELD,
  text: field(100_000 + 1000),
  type: field(10),
  project_id: field(100),
  return: field(2000),
  organize: field(5),
  organize_shown: field(5),
});
const ActionBody = Type.Object({ ...CSRF_FIELD, return: field(2000), version: field(200) });
const UndoBody = Type.Object({ ...CSRF_FIELD, return: field(2000), undo: field(4000) });
const ItemParams = Type.Object({ id: Type.String({ maxLength: 100 }), action: Type.String({ maxLength: 30 }) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

const YEAR_S = 365 * 24 * 3600;
const UNDO_FIELDS = ['type', 'project_id', 'due_at', 'title'] as const;
const PREFERENCE = { httpOnly: true, sameSite: 'lax' as const, path: '/', maxAge: YEAR_S };

/** A redirect target with extra query parameters. */
const withParams = (target: string, params: Record<string, string>): string =>
  `${target}${target.includes('?') ? '&' : '?'}${new URLSearchParams(params).toString()}`;

export const inboxRoutes: FastifyPluginAsyncTypebox<InboxSources & Pick<Services, 'items' | 'limits'>> = async (app, options) => {
  const { clock, items, limits, projects } = options;
  const render = createInboxRenderer(options);

  app.get('/', { schema: { querystring: InboxQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const { organized, undo: undoParam, ...query } = request.query;
    let notice;
    const undo = decodeUndo(undoParam);
    if (organized && undo) {
      const item = await items.get(user.id, organized).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return null;
        throw error;
      });
      if (item) {
        const project = await projects.get(user.id, item.project_id);
        const self = safeReturn(`/?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString()}`);
        notice = organizedNotice({
          item,
          undo,
          projectName: project.name,
          dates: dateContext(request, user.timezone, clock),
          csrf: webContext(request).csrf,
          self,
        });
      }
    } else if (request.cookies[PRO_HINT_COOKIE] === 'pending' && user.plan !== 'pro') {
      notice = proHint;
      void reply.setCookie(PRO_HINT_COOKIE, 'seen', PREFERENCE);
    }
    return render(request, reply, user, { query, ...(notice ? { notice } : {}) });
  });

  app.post('/inbox/capture', { schema: { body: CaptureBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const { text = '', type, project_id: projectId } = request.body;
    const back = safeReturn(request.body.return);
    const base = back.split('?')[0]!;
    const onProject = base.startsWith('/projects/') ? { project: base.slice('/projects/'.length) } : {};
    const again = (status: number, error: string) =>
      render(request, reply, user, { query: { ...queryOf(back), ...onProject }, base, status, capture: { draft: text, error } });
    const pro = user.plan === 'pro';
    // Pro users' choice is remembered; the hidden field tells an unticked box from an old form without one.
    const organize = pro && (request.body.organize_shown === '1' ? request.body.organize === '1' : request.cookies[ORGANIZE_COOKIE] !== '0');
    if (pro && request.body.organize_shown === '1') void reply.setCookie(ORGANIZE_COOKIE, organize ? '1' : '0', PREFERENCE);
    // The API's schema refuses blank text before its service runs; here the form says so.
    if (text.trim() === '') return again(400, 'Type something to capture.');
    const limited = await overLimit(limits, user, reply);
    if (limited) return again(429, limited);
    let captured;
    try {
      // Only what the user chose is sent: an unchosen project or type is left to quick add and the organizer.
      ({ item: captured } = await items.capture(user, {
        text,
        ...(type === 'note' || type === 'todo' ? { type } : {}),
        ...(projectId ? { project_id: projectId } : {}),
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
      // The notice lives on the inbox page; a capture from a project page shows it there too.
      return reply.redirect(withParams(back.startsWith('/?') || back === '/' ? back : '/', { organized: captured.id, undo: encodeUndo(undo) }), 303);
    }
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
      await items.patch(user.id, request.params.id, undoPatch(undo), ifMatchPrecondition(undo.etag));
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
    const limited = await overLimit(limits, user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    // The item page's buttons carry the version it shows: an item changed since is not archived or deleted blindly.
    const precondition = request.body.version ? ifMatchPrecondition(request.body.version) : undefined;
    try {
      await run(user.id, request.params.id, precondition);
    } catch (error) {
      if (error instanceof AppError && error.code === 'precondition_failed') {
        throw new PageError(
          409,
          'Changed since',
          'The item was changed after this page was loaded, so nothing was done. Go back and reload it to see the change.',
        );
      }
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
