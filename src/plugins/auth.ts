import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KeysService } from '../modules/keys/keys.service.js';
import type { AuthUser } from '../modules/users/auth-user.js';

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Routes marked public skip bearer authentication (pairing, the OpenAPI document). */
    public?: boolean;
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The authenticated user; only called from routes that authentication already guarded. */
export function authUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new AppError('unauthorized', 'a valid API key is required');
  return request.authUser;
}

/**
 * Bearer authentication for every route of the scope it is installed in. It runs on onRequest,
 * before the body is read or validated, so an anonymous caller learns nothing about a route.
 */
export function installBearerAuth(app: FastifyInstance, keys: KeysService): void {
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) throw new AppError('unauthorized', 'send an API key as Authorization: Bearer cin_…');
    const user = await keys.authenticate(token);
    if (!user) throw new AppError('unauthorized', 'the API key is invalid or revoked');
    request.authUser = user;
  });
}
