import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService, SessionUser } from '../modules/accounts/accounts.service.js';
import { SESSION_TTL_MS } from '../modules/accounts/accounts.service.js';
import { PageError } from './page-error.js';
import { fastifyCookie } from '@fastify/cookie';

/** What every web request knows about its browser. */
export interface WebContext {
  user: SessionUser | null;
  /** The session cookie's token while signed in (sign-out needs it). */
  sessionToken: string | null;
  /** The CSRF token this browser's forms must carry. */
  csrf: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    web: WebContext | null;
  }
}

export interface CookieNames {
  secure: boolean;
  session: string;
  /** Signed-out browsers get a random value here, so the sign-in and sign-up forms carry a token too. */
  anonymous: string;
}

/** `__Host-` cookies (HTTPS only) cannot be planted by a sibling subdomain, which protects the CSRF basis. */
function cookieNames(publicUrl: string): CookieNames {
  const secure = publicUrl.startsWith('https://');
  const prefix = secure ? '__Host-' : '';
  return { secure, session: `${prefix}cin_session`, anonymous: `${prefix}cin_anon` };
}

const RANDOM_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * The CSRF token is an HMAC of the browser's own cookie (the session token once signed in): a
 * page of another site can neither read it nor compute it, it needs no storage, and signing in or
 * out changes it, so a token from another session is refused.
 */
const csrfTokenFor = (basis: string): string => createHmac('sha256', basis).update('capture-inbox csrf v1').digest('base64url');

export function sameToken(sent: string, expected: string): boolean {
  const [a, b] = [Buffer.from(sent), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The signed-in user and CSRF token of a request outside the web plugin (the app's 404 page, which
 * no route's hooks reach): read from the Cookie header, changing nothing (no cookie is set).
 */
export async function sessionOfHeaders(
  request: FastifyRequest,
  deps: { accounts: AccountsService; publicUrl: string },
): Promise<Pick<WebContext, 'user' | 'csrf'>> {
  const header = request.headers.cookie;
  const token = header ? fastifyCookie.parse(header)[cookieNames(deps.publicUrl).session] : undefined;
  const user = token ? await deps.accounts.resolve(token).catch(() => null) : null;
  return { user, csrf: user && token ? csrfTokenFor(token) : '' };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'fetch-metadata': a POST without a CSRF token is taken when Sec-Fetch-Site is none or same-origin (the share target). */
    csrf?: 'fetch-metadata';
  }
}

export function webContext(request: FastifyRequest): WebContext {
  if (!request.web) throw new Error('web context missing: route registered outside the web plugin');
  return request.web;
}

export interface SessionCookies {
  start(reply: FastifyReply, token: string): void;
  end(reply: FastifyReply): void;
}

/**
 * Resolves the session cookie on every request, sets the signed-out browser's CSRF basis, and
 * refuses a POST without this browser's token or from another origin.
 */
export function installWebSession(app: FastifyInstance, deps: { accounts: AccountsService; publicUrl: string }): SessionCookies {
  const names = cookieNames(deps.publicUrl);
  const publicOrigin = new URL(deps.publicUrl).origin;
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: names.secure, path: '/' };

  app.decorateRequest('web', null);
  app.addHook('onRequest', async (request, reply) => {
    const sessionToken = request.cookies[names.session];
    const user = sessionToken ? await deps.accounts.resolve(sessionToken) : null;
    if (sessionToken && !user) void reply.clearCookie(names.session, base);
    let basis = user ? sessionToken! : request.cookies[names.anonymous];
    if (!basis || !RANDOM_TOKEN.test(basis)) {
      basis = newToken();
      void reply.setCookie(names.anonymous, basis, base);
    }
    request.web = { user, sessionToken: user ? sessionToken! : null, csrf: csrfTokenFor(basis) };
  });

  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST') return;
    if (!fromThisSite(request, publicOrigin)) {
      throw new PageError(403, 'Refused', 'This form was sent from another site, so it was not accepted.');
    }
    // The share target (web/routes/attachments.routes.ts): the phone's share sheet posts it with no page
    // to carry a token; only a browser that says it came from this site or from no site gets through.
    const site = request.headers['sec-fetch-site'];
    if (request.routeOptions.config.csrf === 'fetch-metadata' && (site === 'none' || site === 'same-origin')) return;
    const body = request.body as Record<string, unknown> | undefined;
    const sent = typeof body?._csrf === 'string' ? body._csrf : '';
    if (!sameToken(sent, webContext(request).csrf)) {
      throw new PageError(403, 'This form has expired', 'The form was stale or did not come from this site. Go back, reload the page and try again.');
    }
  });

  return {
    start: (reply, token) => void reply.setCookie(names.session, token, { ...base, maxAge: Math.floor(SESSION_TTL_MS / 1000) }),
    end: (reply) => void reply.clearCookie(names.session, base),
  };
}

/**
 * Browsers say where a POST comes from (Sec-Fetch-Site, Origin); when they do, it must be this
 * site ("null", from a sandboxed frame or a data: page, is not). Clients that send neither are
 * judged by the CSRF token alone.
 */
function fromThisSite(request: FastifyRequest, publicOrigin: string): boolean {
  // Pages cannot forge Sec-Fetch-Site; where a browser sends it, it settles the question.
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === publicOrigin || origin === `${request.protocol}://${request.host}`;
}
