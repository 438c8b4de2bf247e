import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { apiErrorFrom } from './errors.js';
import type { paths } from './generated/openapi.js';
import { retryingFetch, type FetchFn, type RetryOptions } from './retry.js';

export interface ClientOptions {
  /** The server's address, e.g. `https://inbox.example.com` (a trailing `/api/v1` is accepted too). */
  baseUrl: string;
  /** An API key (`cin_…`); without one only the public endpoints answer. */
  token?: string;
  /** Bounded retry of 429/503 and of failed connections. */
  retry?: RetryOptions;
  /** The fetch to use (default: the global one). */
  fetch?: FetchFn;
  /** Extra headers on every request (e.g. a User-Agent for a named tool). */
  headers?: Record<string, string>;
}

export type Api = Client<paths>;

/**
 * The server's root address: no trailing slashes, no `/api/v1`. A missing or relative address is
 * refused here, at construction, rather than as a puzzling failure of the first request.
 */
export function serverRoot(baseUrl: string): string {
  const example = 'e.g. createClient({ baseUrl: "https://inbox.example.com", token })';
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') throw new TypeError(`baseUrl is required: the server's address, ${example}`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) address, not ${JSON.stringify(baseUrl)}; ${example} (in a browser: location.origin)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be an http or https address, not ${url.protocol}`);
  return baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/v1$/, '');
}

// Every POST gets a fresh key once, before the retrying fetch, so a retry is recognised as a repeat.
// The pairing endpoints do not take one.
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key') && !new URL(request.url).pathname.includes('/connect/')) {
      request.headers.set('idempotency-key', crypto.randomUUID());
    }
    return request;
  },
};

export function createApi(options: ClientOptions): Api {
  const baseFetch: FetchFn = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createFetchClient<paths>({
    baseUrl: serverRoot(options.baseUrl),
    fetch: retryingFetch(baseFetch, options.retry),
    headers: {
      ...options.headers,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
  api.use(idempotencyKeys);
  return api;
}

// The ETag each one-item answer came with, kept beside the object rather than in it, so the item
// stays exactly the server's JSON.
const etags = new WeakMap<object, string>();

/** The ETag the server sent with this item (send it back as `ifMatch`); undefined for list entries. */
export function etagOf(item: object): string | undefined {
  return etags.get(item);
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's body, or an ApiError when the server refused. */
export async function unwrap<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw apiErrorFrom(response, error);
  const etag = response.headers.get('etag');
  if (etag && typeof data === 'object' && data !== null) etags.set(data, etag);
  return data as T;
}

/** Header parameters of a conditional change; absent values are left out. */
export function conditional(options: { ifMatch?: string | undefined; idempotencyKey?: string | undefined } = {}): Record<string, string> {
  return {
    ...(options.ifMatch !== undefined ? { 'if-match': options.ifMatch } : {}),
    ...(options.idempotencyKey !== undefined ? { 'idempotency-key': options.idempotencyKey } : {}),
  };
}
