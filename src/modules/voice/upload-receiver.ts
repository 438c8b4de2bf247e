import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../errors.js';

/** The contract's limit on the audio file: 10 MiB. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

/** Room for the multipart envelope and the small fields beside the file. */
const ENVELOPE_BYTES = 64 * 1024;

/** Busboy's limits for the form: one file, a few short fields. */
export const FORM_LIMITS = {
  fileSize: MAX_AUDIO_BYTES,
  files: 1,
  fields: 8,
  fieldSize: 1024,
  parts: 16,
  headerPairs: 32,
} as const;

export interface ReceivedForm {
  /** The file part named `file`, once it is on disk in full. */
  file: { filename: string; bytes: number } | undefined;
  /** Text fields by name (the first of each name). */
  fields: Record<string, string>;
}

// Every refusal here leaves the rest of the body unread. The answer asks to close the connection;
// while the body is still arriving, src/plugins/body-drain.ts keeps it open instead and reads the
// rest (bounded), so a client that is still sending can read the answer.
const CLOSE = { connection: 'close' };

const tooLarge = (): AppError =>
  new AppError('payload_too_large', `the audio file is larger than 10 MiB (${MAX_AUDIO_BYTES.toLocaleString('en')} bytes)`, { headers: CLOSE });

const refuse = (code: 'bad_request' | 'unsupported_media_type' | 'payload_too_large', message: string, field?: string): AppError =>
  new AppError(code, message, { headers: CLOSE, ...(field ? { details: [{ field, message }] } : {}) });

/** The error a multipart failure answers with. */
function formError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return refuse('payload_too_large', 'send one file per request, in the part named file');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return refuse('payload_too_large', 'the form has too many parts; send file and, optionally, language');
    default:
      return refuse('bad_request', 'the multipart/form-data body is malformed or incomplete');
  }
}

/**
 * What the headers alone can refuse: a declared length too large for the file (413), a body that
 * is not multipart/form-data (415), no body at all (400). Nothing is read, so the route runs this
 * before asking whether a speech engine is there: a wrong request is wrong on every server.
 */
export function checkFormHeaders(request: FastifyRequest): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_AUDIO_BYTES + ENVELOPE_BYTES) throw tooLarge();
  if (!request.isMultipart()) {
    const message = 'send the audio as multipart/form-data with a file part named file';
    const sentBody = request.headers['content-type'] !== undefined || request.headers['transfer-encoding'] !== undefined || declared > 0;
    throw sentBody ? refuse('unsupported_media_type', message) : badRequest(message, 'file');
  }
}

/**
 * Streams the form of POST /voice/transcribe: the `file` part goes straight to `targetPath` (never
 * held in memory), text fields are collected. The upload is refused with 413 as soon as it passes
 * MAX_AUDIO_BYTES; a declared Content-Length that could only hold a larger file is refused before
 * a byte is read.
 */
export async function receiveAudioForm(request: FastifyRequest, targetPath: string): Promise<ReceivedForm> {
  checkFormHeaders(request);

  const form: ReceivedForm = { file: undefined, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') form.fields[part.fieldname] ??= part.value;
        continue;
      }
      if (part.fieldname !== 'file') throw refuse('bad_request', `unexpected file part "${part.fieldname}"; the audio goes in the part named file`, 'file');
      // Busboy only flags the limit and skips the rest of the part, which would still be read to
      // its end; failing the stream at once is what cuts the upload off.
      part.file.once('limit', () => part.file.destroy(tooLarge()));
      const out = createWriteStream(targetPath);
      await pipeline(part.file, out);
      if (part.file.truncated) throw tooLarge();
      form.file = { filename: part.filename, bytes: out.bytesWritten };
    }
  } catch (error) {
    throw formError(error);
  }
  if (!form.file && form.fields.file !== undefined) {
    throw badRequest('file must be a file upload (a part with a filename), not a text field', 'file');
  }
  return form;
}
