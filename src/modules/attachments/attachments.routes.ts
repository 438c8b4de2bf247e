import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AttachmentsService, StagedFile } from './attachments.service.js';
import { fileTooLarge } from './attachments.service.js';
import { contentDisposition } from './content-type.js';
import { AttachmentCreatedSchema, AttachmentForm } from './attachments.schemas.js';
import { AppError, badRequest } from '../../errors.js';
import { grants } from '../keys/scopes.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, errorResponses, ref } from '../../schemas/common.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The upload's file, received into the store and not yet attached (attachments route only). */
    stagedAttachment: StagedFile | null;
  }
}

/** Room for the multipart envelope around the file. */
const ENVELOPE_BYTES = 64 * 1024;
const CLOSE = { connection: 'close' };

/** The file part of the form, its stream not yet read; the request's faults first (415, 413, 400). */
async function filePart(request: FastifyRequest, maxBytes: number): Promise<{ source: Readable; filename: string | undefined }> {
  const declared = Number(request.headers['content-length']);
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', 'send the file as multipart/form-data with a part named file', { headers: CLOSE });
  }
  if (Number.isFinite(declared) && declared > maxBytes + ENVELOPE_BYTES) throw fileTooLarge(maxBytes);
  let part;
  try {
    // One byte past the plan's limit reaches the service, which refuses the file as it passes it.
    part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 4, parts: 8, headerPairs: 32 } });
  } catch {
    throw new AppError('bad_request', 'the multipart/form-data body is malformed', { headers: CLOSE });
  }
  if (!part) throw badRequest('the form has no file: send it in a part named file', 'file');
  if (part.fieldname !== 'file')
    throw new AppError('bad_request', `unexpected part "${part.fieldname}": the file goes in the part named file`, { headers: CLOSE });
  return { source: part.file, filename: part.filename };
}

/** Its own scope: only the upload reads multipart/form-data, and no other body. */
const uploadRoute: FastifyPluginAsyncTypebox<{ attachments: AttachmentsService }> = async (app, { attachments }) => {
  app.removeAllContentTypeParsers();
  await app.register(multipart, { throwFileSizeLimit: true });
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(null, undefined);
  });
  app.decorateRequest('stagedAttachment', null);

  app.post(
    '/items/:id/attachments',
    {
      // The file is received before the key is claimed (preValidation), so the key's fingerprint hashes the whole body.
      config: { scope: 'capture', idempotent: true },
      schema: {
        tags: ['attachments'],
        operationId: 'addAttachment',
        summary: 'Attach a file to an item',
        description:
          'multipart/form-data with the file in the part `file`, streamed to disk as it arrives. The write scope, or the capture scope for an item the same key ' +
          'captured in the last 10 minutes. 413 `payload_too_large` as soon as the file passes the plan limit (5 MiB Free, 25 MiB Pro); 413 ' +
          '`storage_quota_exceeded` when it would take the user past their storage (100 MiB Free, 10 GiB Pro; each distinct content counted once). ' +
          "The item's `attachments` (and so its ETag and updated_at) change; item.updated is emitted.",
        params: IdParams,
        body: { content: { 'multipart/form-data': { schema: AttachmentForm } } },
        response: {
          201: ref(AttachmentCreatedSchema, 'the new attachment'),
          ...errorResponses(
            {
              413: 'the file passes the plan limit (payload_too_large) or the storage quota (storage_quota_exceeded)',
              415: 'not multipart/form-data (unsupported_media_type)',
            },
            400,
            401,
            404,
            413,
            415,
            429,
          ),
        },
      },
      // The item and the key's right to it first, then the file into the store's temporary folder: the
      // Idempotency-Key is claimed after this (preHandler), on the hash of the whole body.
      preValidation: async (request) => {
        const user = authUser(request);
        const adder = { user, canWrite: request.keyScopes === null || grants(request.keyScopes, 'write') };
        const file = await filePart(request, attachments.maxBytes(user.plan));
        request.stagedAttachment = await attachments.receive(adder, request.params.id, file);
        // busboy has the file; the closing boundary may still be on its way, and the key's hash needs it.
        if (!request.raw.readableEnded) await finished(request.raw);
        request.body = { file: 'file' };
      },
      // A replayed or refused request leaves its staged file behind: it goes before the answer does.
      onSend: async (request, _reply, payload) => {
        const staged = request.stagedAttachment;
        request.stagedAttachment = null;
        if (staged) await attachments.discard(staged);
        return payload;
      },
    },
    async (request, reply) => {
      const user = authUser(request);
      const staged = request.stagedAttachment!;
      request.stagedAttachment = null;
      const canWrite = request.keyScopes === null || grants(request.keyScopes, 'write');
      const { attachment } = await attachments.attach({ user, canWrite }, staged);
      return reply.status(201).send({ attachment });
    },
  );
};

export const attachmentsRoutes: FastifyPluginAsyncTypebox<{ attachments: AttachmentsService }> = async (app, { attachments }) => {
  await app.register(uploadRoute, { attachments });

  app.get(
    '/attachments/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['attachments'],
        operationId: 'getAttachment',
        summary: "Download an attachment's file",
        description:
          'The bytes with the type the service read from them (application/octet-stream when it does not recognise them), ' +
          '`Content-Disposition: attachment` (inline only for images other than SVG, PDF, audio and plain text) with an ASCII `filename` and an RFC 5987 `filename*`, ' +
          "`X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. Another user's attachment is 404.",
        params: IdParams,
        response: {
          200: Type.Unsafe<Readable>({ description: 'the file', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } }),
          ...errorResponses(401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { attachment, stream } = await attachments.open(authUser(request).id, request.params.id);
      return reply
        .type(attachment.content_type)
        .header('content-length', attachment.size)
        .header('content-disposition', contentDisposition(attachment.filename, attachment.content_type))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', 'sandbox')
        .header('cache-control', 'private, no-cache')
        .send(stream);
    },
  );

  app.delete(
    '/attachments/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['attachments'],
        operationId: 'deleteAttachment',
        summary: 'Delete an attachment',
        description: 'Removes the attachment from its item (whose ETag changes; item.updated is emitted); the bytes go when no other attachment uses them.',
        params: IdParams,
        response: { 200: Type.Object({ ok: Type.Literal(true) }, { description: 'deleted' }), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await attachments.remove(authUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );
};
