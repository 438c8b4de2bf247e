import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { hasLoneSurrogate } from '../lib/unicode.js';

/**
 * Replaces Fastify's JSON parser so that an empty body (common from clients that always send
 * `Content-Type: application/json`, e.g. on POST .../toggle) is "no body" rather than an error,
 * and so that a body that does not parse gets the contract's 400 with a readable message.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      // Reject prototype-pollution keys outright instead of silently keeping them.
      done(
        null,
        JSON.parse(text, (key, value: unknown) => {
          // PostgreSQL text cannot hold U+0000; refuse it on every database rather than fail at the write.
          if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) {
            throw new AppError('bad_request', 'strings in the body must not contain NUL (\\u0000) characters');
          }
          // A lone UTF-16 surrogate ("\ud800") is no character at all: each database would store a
          // different replacement for it, and the answer would echo what was never stored.
          if (hasLoneSurrogate(key) || (typeof value === 'string' && hasLoneSurrogate(value))) {
            throw new AppError('bad_request', 'strings in the body must be well-formed Unicode (no lone \\ud800-\\udfff surrogates)');
          }
          return key === '__proto__' ? undefined : value;
        }),
      );
    } catch (error) {
      done(error instanceof AppError ? error : new AppError('bad_request', 'request body is not valid JSON'), undefined);
    }
  });
}
