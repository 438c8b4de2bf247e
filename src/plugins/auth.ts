import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KeysService } from '../modules/keys/keys.service.js';
import type { Scope } from '../modules/keys/scopes.js';
import type { AuthUser } from '../schemas/auth-user.js';

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
    /** The scopes of the request's key; null until authentication ran (and on public routes). */
    keyScopes: readonly Scope[] | null;
  }
  interface FastifyContextConfig {
    /** Routes marked public skip bearer authentication (pairing, the OpenAPI document). */
    public?: boolean;
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * Every 401 says the same, whatever the cause (missing, malformed, unknown, revoked, expired or
 * ambiguous): the answer must not help anyone probe which keys exist.
 */
export const UNAUTHORIZED_MESSAGE = 'a valid API key is required: send Authorization: Bearer cin_…';
const unauthorized = (): AppError => new AppError('unauthorized', UNAUTHORIZED_MESSAGE);

/** The authenticated user; only called from routes that authentication already guarded. */
export function authUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}

/** Node keeps only the first of repeated Authorization headers; the raw list shows them all. */
function authorizationHeaderCount(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'authorization') count += 1;
  return count;
}

/**
 * Bearer authentication for every route of the scope it is installed in. It runs on onRequest,
 * before the body is read or validated, so an anonymous caller learns nothing about a route.
 * A request with two Authorization headers is ambiguous (a proxy may have read the other one) and
 * is refused rather than judged by the first.
 */
export function installBearerAuth(app: FastifyInstance, keys: KeysService): void {
  app.decorateRequest('authUser', null);
  app.decorateRequest('keyScopes', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    if (authorizationHeaderCount(request) > 1) throw unauthorized();
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) throw unauthorized();
    const key = await keys.authenticate(token);
    if (!key) throw unauthorized();
    request.authUser = key.user;
    request.keyScopes = key.scopes;
  });
}
