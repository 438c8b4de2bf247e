import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authUser } from '../../plugins/auth.js';
import { installRateLimits } from '../../plugins/rate-limit.js';
import type { KeysService } from '../keys/keys.service.js';
import type { Scope } from '../keys/scopes.js';
import type { LimitsService } from '../limits/limits.service.js';
import { authenticateBasic, requireScope } from './basic-auth.js';
import type { CaldavService } from './caldav.service.js';
import { davErrorHandler } from './dav-error-handler.js';
import { DAV_ROOT, HOME, PRINCIPAL } from './dav-paths.js';
import { createDavRequests, type DavAnswer } from './dav-requests.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a DAV method needs: read for reading ones, write for those that change something. */
    davScope?: Scope;
  }
}

/*
 * The CalDAV server (RFC 4791, RFC 6578) under /dav/, and its discovery at /.well-known/caldav and
 * PROPFIND /. Basic sign-in with an API key, the same rate limits as the API (after the key and
 * its scope are checked, so a refused request is not counted), answers in DAV's XML or plain text.
 */

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'REPORT', 'MKCALENDAR', 'MKCOL'] as const;
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL';
const DAV_HEADER = '1, 3, calendar-access';

const text = (request: FastifyRequest): string | undefined => (typeof request.body === 'string' ? request.body : undefined);
const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** A streamed body goes out as it is made; an error past its first byte can only cut the connection. */
function send(reply: FastifyReply, answer: DavAnswer): FastifyReply {
  for (const [k, v] of Object.entries(answer.headers ?? {})) void reply.header(k, v);
  const body = answer.body ?? '';
  // Bytes, not objects: an object-mode stream would read 16 pages ahead of the socket.
  return reply.code(answer.status).send(typeof body === 'string' ? body : Readable.from(body, { objectMode: false }));
}

type Params = { collection: string; object: string };

export async function caldavRoutes(app: FastifyInstance, opts: { caldav: CaldavService; keys: KeysService; limits: LimitsService }): Promise<void> {
  const { caldav } = opts;
  const dav = createDavRequests(caldav);
  for (const method of DAV_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.setErrorHandler(davErrorHandler);
  app.decorateRequest('authUser', null);
  app.decorateRequest('keyScopes', null);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('dav', DAV_HEADER);
    const { config } = request.routeOptions;
    if (config.public || config.davScope === undefined) return;
    await authenticateBasic(opts.keys, request);
    requireScope(request, 'read');
    if (config.davScope === 'write') requireScope(request, 'write');
  });
  installRateLimits(app, opts.limits);

  const hidden = { hide: true };
  const redirect = (_request: FastifyRequest, reply: FastifyReply) => reply.redirect(DAV_ROOT, 301);
  app.route({ method: ['GET', 'PROPFIND'], url: '/.well-known/caldav', schema: hidden, config: { public: true }, handler: redirect });
  app.route({
    method: 'OPTIONS',
    url: '/dav/*',
    schema: hidden,
    config: { public: true },
    handler: async (_request, reply) => reply.header('allow', ALLOW).code(200).send(''),
  });

  const read = { schema: hidden, config: { davScope: 'read' as const } };
  const write = { schema: hidden, config: { davScope: 'write' as const } };
  for (const [url, kind] of [
    ['/', 'root'],
    ['/dav/', 'root'],
    [PRINCIPAL, 'principal'],
    [HOME, 'home'],
  ] as const) {
    app.route({
      method: 'PROPFIND',
      url,
      ...read,
      handler: async (request, reply) => send(reply, await dav.propfind(authUser(request), { kind, path: url }, header(request, 'depth'), text(request))),
    });
  }
  const collection = `${HOME}:collection/`;
  const object = `${HOME}:collection/:object`;
  app.route<{ Params: Params }>({
    method: 'PROPFIND',
    url: collection,
    ...read,
    handler: async (request, reply) =>
      send(reply, await dav.propfind(authUser(request), { kind: 'collection', segment: request.params.collection }, header(request, 'depth'), text(request))),
  });
  app.route<{ Params: Params }>({
    method: 'PROPFIND',
    url: object,
    ...read,
    handler: async (request, reply) =>
      send(
        reply,
        await dav.propfind(
          authUser(request),
          { kind: 'object', segment: request.params.collection, name: request.params.object },
          header(request, 'depth'),
          text(request),
        ),
      ),
  });
  app.route<{ Params: Params }>({
    method: 'REPORT',
    url: collection,
    ...read,
    handler: async (request, reply) => send(reply, await dav.report(authUser(request), request.params.collection, text(request))),
  });
  app.route<{ Params: Params }>({
    method: 'PROPPATCH',
    url: collection,
    ...write,
    handler: async (request, reply) => send(reply, await dav.proppatch(authUser(request), request.params.collection, text(request))),
  });
  app.route<{ Params: Params }>({
    method: ['MKCALENDAR', 'MKCOL'],
    url: collection,
    ...write,
    handler: async (request, reply) => send(reply, await dav.mkcalendar(authUser(request), request.params.collection, text(request))),
  });
  app.route<{ Params: Params }>({
    method: 'DELETE',
    url: collection,
    ...write,
    handler: async (request, reply) => {
      const user = authUser(request);
      await caldav.collections.remove(user.id, await caldav.collections.find(user.id, request.params.collection));
      return reply.code(204).send();
    },
  });

  app.route<{ Params: Params }>({
    method: 'GET',
    url: object,
    ...read,
    handler: async (request, reply) => {
      const user = authUser(request);
      const found = await caldav.objects.find(user, await caldav.collections.find(user.id, request.params.collection), request.params.object);
      if (!found) return reply.code(404).type('text/plain; charset=utf-8').send('no object at this URL\n');
      void reply.header('etag', found.etag).header('last-modified', new Date(found.item.updated_at).toUTCString());
      const ifNoneMatch = header(request, 'if-none-match');
      if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === found.etag || t.trim() === '*'))
        return reply.code(304).send();
      return reply.type('text/calendar; charset=utf-8').send(found.ics());
    },
  });
  app.route<{ Params: Params }>({
    method: 'PUT',
    url: object,
    ...write,
    handler: async (request, reply) => {
      const user = authUser(request);
      const target = await caldav.collections.find(user.id, request.params.collection);
      const result = await caldav.writes.put(user, target, request.params.object, text(request) ?? '', {
        ...(header(request, 'if-match') !== undefined ? { ifMatch: header(request, 'if-match')! } : {}),
        ...(header(request, 'if-none-match') !== undefined ? { ifNoneMatch: header(request, 'if-none-match')! } : {}),
      });
      if (result.etag) void reply.header('etag', result.etag);
      return reply.code(result.created ? 201 : 204).send();
    },
  });
  app.route<{ Params: Params }>({
    method: 'DELETE',
    url: object,
    ...write,
    handler: async (request, reply) => {
      const user = authUser(request);
      await caldav.writes.remove(user, await caldav.collections.find(user.id, request.params.collection), request.params.object, header(request, 'if-match'));
      return reply.code(204).send();
    },
  });
}
