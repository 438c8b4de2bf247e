import type { FastifyInstance } from 'fastify';
import type { LimitsService } from '../limits/limits.service.js';
import type { FeedsService } from './feeds.service.js';

/*
 * GET /feeds/{secret}.ics: the feed itself, with no key (the secret in the URL is the key). An
 * unknown, rotated or deleted secret is 404; If-None-Match with the current ETag is 304. Every
 * fetch counts against the feed limits (per client IP and per URL, decisions/0095) before the
 * secret is looked up, right or wrong, so a 429 with Retry-After tells a guesser nothing.
 */

const FILE = /^(.{1,200})\.ics$/;

export async function feedFileRoutes(app: FastifyInstance, opts: { feeds: FeedsService; limits: LimitsService }): Promise<void> {
  app.get<{ Params: { file: string } }>('/feeds/:file', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    const limit = await opts.limits.checkFeedFetch(request.params.file, request.ip);
    if (!limit.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(limit.retryAfter))
        .type('text/plain; charset=utf-8')
        .send(`too many requests for feeds; retry in ${limit.retryAfter} s\n`);
    }
    const match = FILE.exec(request.params.file);
    if (!match) return reply.code(404).type('text/plain; charset=utf-8').send('no feed at this URL\n');
    const doc = await opts.feeds.document(match[1]!);
    void reply.header('etag', doc.etag).header('cache-control', 'no-cache');
    const ifNoneMatch = request.headers['if-none-match'];
    if (typeof ifNoneMatch === 'string' && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === doc.etag || t.trim() === '*')) {
      return reply.code(304).send();
    }
    return reply.type('text/calendar; charset=utf-8').send(doc.body);
  });
}
