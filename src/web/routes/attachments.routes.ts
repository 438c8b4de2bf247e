import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { contentDisposition } from '../../modules/attachments/content-type.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { actingUser, overLimit, signInFirst } from '../acting.js';
import { installAttachmentForm } from '../attachments-upload.js';
import { PageError } from '../page-error.js';
import { CSRF_FIELD, field } from './forms.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const UploadBody = Type.Object({ ...CSRF_FIELD, file: field(1000) });
const CaptureFileBody = Type.Object({ ...CSRF_FIELD, file: field(1000), text: field(100_000) });
const ShareBody = Type.Object({ ...CSRF_FIELD, file: field(1000), title: field(1000), text: field(100_000), url: field(4000) });
const DeleteBody = Type.Object({ ...CSRF_FIELD, item_id: field(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Error codes the item page turns into plain words (web/attachments-view.ts). */
type Problem = 'too_large' | 'quota' | 'no_file' | 'failed' | 'limit';

function problemOf(error: unknown): Problem {
  if (error instanceof AppError && error.code === 'payload_too_large') return 'too_large';
  if (error instanceof AppError && error.code === 'storage_quota_exceeded') return 'quota';
  return 'failed';
}

/** The script asks for JSON (web/client/attachments); a plain form gets the item page back. */
const wantsJson = (request: FastifyRequest): boolean => String(request.headers.accept ?? '').includes('application/json');

/**
 * The web app's files (contract "Attachments": the web app takes files by drop, paste and the
 * share target): download for the session, upload to an item with a plain form, capture of a new
 * item with a file (the capture box, the share target), delete.
 */
export const webAttachmentRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'attachments' | 'capture' | 'items' | 'limits'>> = async (
  app,
  { attachments, capture, items, limits },
) => {
  installAttachmentForm(app, attachments, (request) => {
    const id = (request.params as { id?: string }).id;
    return request.url.startsWith('/inbox/items/') && id ? id : null;
  });

  /** The answer to an upload: the item page (plain form) or JSON (the script), with what went wrong. */
  function answer(request: FastifyRequest, reply: FastifyReply, itemId: string | null, problem?: Problem, message?: string): FastifyReply {
    const status = problem === 'too_large' || problem === 'quota' ? 413 : problem === 'limit' ? 429 : problem ? 400 : 200;
    const page = itemId ? `/inbox/items/${itemId}` : '/inbox';
    if (wantsJson(request)) return reply.status(status).send({ ok: !problem, item_url: page, ...(problem ? { problem, message } : {}) });
    return reply.redirect(problem ? `${page}?attach_error=${problem}#attachments` : `${page}?done=attached#attachments`, 303);
  }

  /** The staged file of the form onto `itemId`; answers the problem, or null once attached. */
  async function attachStaged(request: FastifyRequest, user: AuthUser, itemId: string): Promise<{ problem: Problem; message: string } | null> {
    const staged = request.stagedWebFile!;
    request.stagedWebFile = null;
    try {
      await attachments.attach({ user, canWrite: true }, { ...staged, itemId });
      return null;
    } catch (error) {
      return { problem: problemOf(error), message: error instanceof Error ? error.message : '' };
    }
  }

  /** The form's file received, or why not. */
  function received(request: FastifyRequest): { problem: Problem; message: string } | null {
    if (request.webFileError) {
      const error = request.webFileError;
      if (error instanceof AppError && error.code === 'not_found') throw new PageError(404, 'Not found', 'That item does not exist.');
      return { problem: problemOf(error), message: error instanceof Error ? error.message : '' };
    }
    if (!request.stagedWebFile) return { problem: 'no_file', message: 'choose a file to upload' };
    return null;
  }

  app.get('/inbox/attachments/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, request.url);
    let opened;
    try {
      opened = await attachments.open(user.id, request.params.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') throw new PageError(404, 'Not found', 'That file does not exist.');
      throw error;
    }
    const { attachment, stream } = opened;
    return reply
      .type(attachment.content_type)
      .header('content-length', attachment.size)
      .header('content-disposition', contentDisposition(attachment.filename, attachment.content_type))
      .send(stream);
  });
  // After the pages' own headers: a file is never a page of this site (contract: nosniff, sandbox).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' && request.routeOptions.url === '/inbox/attachments/:id' && reply.statusCode === 200) {
      void reply.header('content-security-policy', 'sandbox').header('cache-control', 'private, no-cache').header('x-content-type-options', 'nosniff');
    }
    return payload;
  });

  app.post('/inbox/items/:id/attachments', { schema: { params: IdParams, body: UploadBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const itemId = request.params.id;
    const refused = await overLimit(limits, user, reply);
    if (refused) return answer(request, reply, itemId, 'limit', refused);
    const problem = received(request) ?? (await attachStaged(request, user, itemId));
    return problem ? answer(request, reply, itemId, problem.problem, problem.message) : answer(request, reply, itemId);
  });

  /** A new item named by the text (or the file's name) with the file attached; nothing stays if the file cannot. */
  async function captureWithFile(request: FastifyRequest, reply: FastifyReply, user: AuthUser, text: string): Promise<FastifyReply> {
    const refused = await overLimit(limits, user, reply);
    if (refused) return answer(request, reply, null, 'limit', refused);
    const problem = received(request);
    if (problem) return answer(request, reply, null, problem.problem, problem.message);
    const staged = request.stagedWebFile!;
    try {
      await attachments.assertRoom(user, staged);
    } catch (error) {
      return answer(request, reply, null, problemOf(error), error instanceof Error ? error.message : '');
    }
    const title = text.trim() || staged.filename?.trim() || 'Shared file';
    const { item } = await capture.capture(user, { text: title, parse: true });
    const failed = await attachStaged(request, user, item.id);
    if (failed) {
      // The quota filled between the check and the attach: the item goes too, so nothing is stored.
      await items.remove(user.id, item.id);
      return answer(request, reply, null, failed.problem, failed.message);
    }
    return answer(request, reply, item.id);
  }

  app.post('/inbox/attach', { schema: { body: CaptureFileBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    return captureWithFile(request, reply, user, request.body.text ?? '');
  });

  // The share target (manifest: POST, multipart/form-data). Text alone lands in the capture box
  // unsaved (GET /share, decision 0021); a file is saved at once, on an item named by the shared text.
  app.post('/share', { schema: { body: ShareBody }, config: { csrf: 'fetch-metadata' } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, '/inbox');
    const { title, text, url } = request.body;
    const words = [title, text, url].map((part) => part?.trim() ?? '').filter((part, i, all) => part && !all.slice(0, i).some((p) => p.includes(part)));
    if (!request.stagedWebFile && !request.webFileError) {
      const query = new URLSearchParams({ ...(title ? { title } : {}), ...(text ? { text } : {}), ...(url ? { url } : {}) });
      return reply.redirect(`/share?${query.toString()}`, 303);
    }
    return captureWithFile(request, reply, user, words.join('\n'));
  });

  app.post('/inbox/attachments/:id/delete', { schema: { params: IdParams, body: DeleteBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const itemId = request.body.item_id && UUID.test(request.body.item_id) ? request.body.item_id : null;
    const refused = await overLimit(limits, user, reply);
    if (refused) throw new PageError(429, 'Too many requests', refused);
    try {
      await attachments.remove(user.id, request.params.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') throw new PageError(404, 'Not found', 'That file does not exist any more.');
      throw error;
    }
    return reply.redirect(itemId ? `/inbox/items/${itemId}?done=file_deleted#attachments` : '/inbox', 303);
  });
};
