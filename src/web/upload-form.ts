import { Busboy } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';
import { PageError } from './page-error.js';

/** A small form with one file: its text fields, and the bytes of the field named `file`. */
export type UploadBody = { [field: string]: string | Buffer | null; file: Buffer | null };

/**
 * Reads multipart/form-data as a body parser (not a hook), so the page scope's CSRF check, which runs
 * before validation, finds `_csrf` among the fields like in any other form. A file over `maxBytes`
 * is a 413 page; only the field named `file` is kept.
 */
export function installUploadParser(app: FastifyInstance, maxBytes: number): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    let form: ReturnType<typeof Busboy>;
    try {
      form = Busboy({
        headers: { ...request.headers, 'content-type': request.headers['content-type'] ?? '' },
        limits: { files: 1, fields: 10, fieldSize: 1000, fileSize: maxBytes },
      });
    } catch {
      done(new PageError(400, 'Unreadable form', 'The upload was not a readable form.'), undefined);
      return;
    }
    const fields: Record<string, string> = {};
    let file: Buffer | null = null;
    let tooLarge = false;
    form.on('field', (name, value) => {
      fields[name] = value;
    });
    form.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        if (name === 'file') file = Buffer.concat(chunks);
      });
    });
    form.on('error', () => done(new PageError(400, 'Unreadable form', 'The upload was cut short or malformed.'), undefined));
    form.on('finish', () => {
      if (tooLarge) done(new PageError(413, 'File too large', `The file is larger than ${maxBytes / 1024 / 1024} MiB.`), undefined);
      else done(null, { ...fields, file } satisfies UploadBody);
    });
    payload.pipe(form);
  });
}
