import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { DavError } from './dav-error.js';
import { davError } from './dav-xml.js';

/**
 * Errors under /dav/ as calendar apps read them: a DAV:error body for preconditions, plain text
 * saying why for the rest (a malformed iCalendar body, a refused key), never the API's JSON.
 */
export function davErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof DavError) {
    void reply.code(error.statusCode).type('application/xml; charset=utf-8').send(davError(error.condition));
    return;
  }
  const status = error instanceof AppError ? error.statusCode : 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (error instanceof AppError) for (const [k, v] of Object.entries(error.headers ?? {})) void reply.header(k, v);
  if (status >= 500) request.log.error({ err: error }, 'caldav request failed');
  const message = status >= 500 ? 'internal error' : error.message;
  void reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}
