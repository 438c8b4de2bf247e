import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../lib/redact-url.js';


/**
 * One log line per request, written when the answer is sent (Fastify's own logging writes two, one
 * as the request arrives and one as it ends, with less in each). At LOG_LEVEL=info the log is a
 * measurable part of a small request's cost, so it stays one line.
 */
export function installRequestLog(app: FastifyInstance): void {
  // At debug level a request is also logged as it arrives (what is in flight when a process stops).
  if (app.log.level === 'debug' || app.log.level === 'trace') {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'request received');
      done();
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
    done();
  });
}
