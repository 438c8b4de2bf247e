import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './test-app.js';

export interface PageResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** Where a redirect points, if it is one. */
  location: string | undefined;
}

/** The first CSRF token of a page's forms. */
export function csrfOf(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error(`no CSRF token on the page:\n${page.slice(0, 500)}`);
  return token;
}

/**
 * A browser stand-in over fastify.inject: it keeps cookies (dropping expired ones) and posts
 * url-encoded forms. No redirects are followed, so tests see each hop.
 */
let clients = 0;

/** Each stand-in browser has an address of its own, so per-IP sign-in limits see separate people. */
function nextAddress(): string {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

export function webClient(app: FastifyInstance, options: { remoteAddress?: string } = {}) {
  const jar = new Map<string, string>();
  const remoteAddress = options.remoteAddress ?? nextAddress();

  async function send(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string> | { json: unknown },
    headers: Record<string, string> = {},
  ): Promise<PageResponse> {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const json = form !== undefined && 'json' in form;
    const res = await app.inject({
      method,
      url,
      remoteAddress,
      headers: {
        accept: 'text/html',
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(form ? { payload: json ? JSON.stringify(form.json) : new URLSearchParams(form).toString() } : {}),
    });
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const gone = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (gone) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
    const location = res.headers.location;
    return { status: res.statusCode, headers: res.headers, body: res.body, location: typeof location === 'string' ? location : undefined };
  }

  const client = {
    jar,
    get: (url: string, headers?: Record<string, string>) => send('GET', url, undefined, headers),
    /** Posts a form as is: no CSRF token unless the fields carry one. */
    postRaw: (url: string, form: Record<string, string>, headers?: Record<string, string>) => send('POST', url, form, headers),
    /** Posts JSON, as a page's script does (its CSRF token in the body, as `_csrf`). */
    postJson: (url: string, body: unknown) => send('POST', url, { json: body }),
    /** Posts a form with the CSRF token of the page at `from` (loaded first). */
    async submit(from: string, url: string, form: Record<string, string> = {}, headers?: Record<string, string>): Promise<PageResponse> {
      const page = await send('GET', from);
      return send('POST', url, { _csrf: csrfOf(page.body), ...form }, headers);
    },
    async signUp(email: string, password = 'correct horse battery'): Promise<PageResponse> {
      const res = await client.submit('/signup', '/signup', { email, password });
      if (res.status !== 303) throw new Error(`sign-up failed: ${res.status} ${res.body.slice(0, 300)}`);
      return res;
    },
    async signIn(email: string, password = 'correct horse battery'): Promise<PageResponse> {
      return client.submit('/login', '/login', { email, password });
    },
  };
  return client;
}

export type WebClient = ReturnType<typeof webClient>;

let webUsers = 0;
/** A unique email for a web sign-up. */
export const newEmail = (): string => `web${++webUsers}-${Date.now()}@example.test`;

/** A signed-up, signed-in browser of a fresh user. */
export async function signedInBrowser(t: TestApp): Promise<{ web: WebClient; email: string; userId: string }> {
  const web = webClient(t.app);
  const email = newEmail();
  await web.signUp(email);
  const user = await t.services.users.requireByEmail(email);
  return { web, email, userId: user.id };
}

/** A random pairing state of the contract's shape. */
export const newState = (): string => randomBytes(24).toString('base64url');
