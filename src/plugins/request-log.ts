import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactUrl } from '../lib/redact-url.js';

const line = (request: FastifyRequest, reply: FastifyReply) => ({
  method: request.method,
  url: redactUrl(request.url),
  status: reply.statusCode,
  ms: Math.round(reply.elapsedTime * 10) / 10,
});

/**
 * One log line per request, written when the answer is sent (Fastify's own logging writes two, one
 * as the request arrives and one as it ends, with less in each). At LOG_LEVEL=info the log is a
 * measurable part of a small request's cost, so it stays one line; at debug a request is also
 * logged as it arrives (what is in flight when a process stops). Secret query values never appear.
 *
 * The line of an answered request goes to `lines` (lib/logger.ts, fixedFieldLogger): its fields are
 * these five and hold no secret, so it skips the redaction pass and the request's child logger,
 * and carries the request id itself. An errored request logs through its child, redaction and all.
 */
export class RequestLog extends LogController {
  constructor(private readonly lines: Pick<Logger, 'info'>) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    if (request.log.level === 'debug' || request.log.level === 'trace')
      request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'request received');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ ...line(request, reply), err: error }, 'request errored');
    else this.lines.info({ reqId: request.id, ...line(request, reply) }, 'request');
  }
}
