import { Busboy } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AttachmentsService, StagedFile } from '../modules/attachments/attachments.service.js';
import { actingUser } from './acting.js';
import { PageError } from './page-error.js';
import { sameToken, webContext } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The form's file, streamed into the attachments store and not yet attached. */
    stagedWebFile: StagedFile | null;
    /** Why the form's file was not received (too large, unknown item): the route says it in the page. */
    webFileError: unknown;
  }
}

/** The most a web form may send besides its file (text fields of a capture or a share). */
const FIELD_BYTES = 110_000;
/** The contract's largest file (Pro); each plan's own limit is checked by the attachments service as the file streams. */
const HARD_FILE_LIMIT = 25 * 1024 * 1024 + 1;

/**
 * multipart/form-data for the attachment forms, as a body parser: text fields are kept (`_csrf`
 * among them, for the page scope's check), and the part named `file` streams into the attachments
 * store, never whole in memory, once the fields before it carried this browser's CSRF token (the
 * forms put it first). A form that fails the check is refused by the page scope with nothing
 * received. `itemOf` says which item the file is for (null: one the route makes afterwards).
 */
export function installAttachmentForm(app: FastifyInstance, attachments: AttachmentsService, itemOf: (request: FastifyRequest) => string | null): void {
  app.decorateRequest('stagedWebFile', null);
  app.decorateRequest('webFileError', null);
  // Anything not attached by the route goes before the answer does (a refused or failed request).
  app.addHook('onResponse', async (request) => {
    const staged = request.stagedWebFile;
    request.stagedWebFile = null;
    if (staged) await attachments.discard(staged);
  });

  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    let form: ReturnType<typeof Busboy>;
    try {
      form = Busboy({
        headers: { ...request.headers, 'content-type': request.headers['content-type'] ?? '' },
        limits: { files: 1, fields: 10, fieldSize: FIELD_BYTES, fileSize: HARD_FILE_LIMIT },
      });
    } catch {
      done(new PageError(400, 'Unreadable form', 'The upload was not a readable form.'), undefined);
      return;
    }
    const fields: Record<string, string> = {};
    let receiving: Promise<void> = Promise.resolve();
    let filename: string | undefined;
    form.on('field', (name, value) => {
      fields[name] = value;
    });
    form.on('file', (name, stream, original) => {
      const user = actingUser(request);
      const site = request.headers['sec-fetch-site'];
      const trusted =
        sameToken(fields._csrf ?? '', webContext(request).csrf) ||
        (request.routeOptions.config.csrf === 'fetch-metadata' && (site === 'none' || site === 'same-origin'));
      // An empty file input sends a part with no name and no bytes: no file.
      if (name !== 'file' || !original || !user || !trusted || request.stagedWebFile) {
        stream.resume();
        return;
      }
      filename = original;
      const adder = { user, canWrite: true };
      receiving = attachments.receive(adder, itemOf(request), { source: stream, filename: original }).then(
        (staged) => {
          request.stagedWebFile = staged;
        },
        (error: unknown) => {
          request.webFileError = error;
          stream.resume();
        },
      );
    });
    form.on('error', () => done(new PageError(400, 'Unreadable form', 'The upload was cut short or malformed.'), undefined));
    form.on('finish', () => {
      void receiving.then(() => done(null, { ...fields, ...(filename ? { file: filename } : {}) }));
    });
    payload.pipe(form);
  });
}
