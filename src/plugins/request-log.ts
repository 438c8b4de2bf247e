import type { FastifyInstance } from 'fastify';

/** Query parameters whose values are secrets (the pairing state, tokens): never written to logs. */
const SECRET_PARAMS = /([?&](?:state|token|key|secret|code|password)=)[^&#]*/gi;

/** The request's path and query with secret values replaced. */
export const loggableUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');

/**
 * One log line per request, written when the answer is sent (Fastify's own logging writes two, one
 * as the request arrives and one as it ends, with less in each). At LOG_LEVEL=info the log is a
 * measurable part of a small request's cost, so it stays one line.
 */
export function installRequestLog(app: FastifyInstance): void {
  // At debug level a request is also logged as it arrives (what is in flight when a process stops).
  if (app.log.level === 'debug' || app.log.level === 'trace') {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ method: request.method, url: loggableUrl(request.url) }, 'request received');
      done();
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: loggableUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
    done();
  });
}
