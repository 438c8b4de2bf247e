import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Headers a browser client may read: limits, paging and the request id. */
const EXPOSED = [
  'x-request-id',
  'x-next-cursor',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

/**
 * CORS for the API scope, only for the CORS_ORIGINS list. The API authenticates by bearer key, never
 * by cookie, so credentials stay off: a page on an allowed origin can use a key it holds, and no page
 * can ride on a signed-in web session. Registered before authentication so that a preflight (which
 * carries no key) is answered rather than refused with 401. An origin not on the list gets an answer
 * without Access-Control-Allow-Origin, which the browser treats as a refusal.
 */
export async function installCors(api: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await api.register(cors, {
    origin: [...origins],
    credentials: false,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
    exposedHeaders: EXPOSED,
    maxAge: 600,
    strictPreflight: true,
  });
}
