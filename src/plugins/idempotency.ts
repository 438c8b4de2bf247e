import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseAsyncHookHandler, onSendAsyncHookHandler, preParsingAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { withHook } from './route-hooks.js';
import { AppError } from '../errors.js';
import { observeBody, requestFingerprint } from '../modules/idempotency/body-fingerprint.js';
import type { IdempotencyService, KeyClaim } from '../modules/idempotency/idempotency.service.js';
import { errorResponses } from '../schemas/common.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotentRequest | null;
  }
  interface FastifyContextConfig {
    /**
     * POSTs only: whether the route honours an Idempotency-Key (contract, "Sync"). Every
     * authenticated POST must say so: registering one without it fails.
     */
    idempotent?: boolean;
  }
}

interface IdempotentRequest {
  userId: string;
  key: string;
  bodyHash: () => string;
  /** Set once this request holds the key, until its answer is kept or the key released. */
  claim: KeyClaim | null;
}

/** The contract: 1..255 printable ASCII characters. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/** Response headers that belong to the kept answer. */
const KEPT_HEADERS = ['content-type', 'etag', 'location'] as const;

const KEY_HEADER = {
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        '1..255 printable ASCII characters. The first request with a key runs and its answer is kept 24 h; a repeat with the same method, path and body ' +
        'answers it again (with Idempotent-Replayed: true) and changes nothing; the same key with another request is 422 idempotency_key_reused; ' +
        'while the first still runs, 409 conflict with Retry-After: 1. 5xx, 401 and 429 answers are not kept.',
    }),
  ),
};
const REPLAYED_HEADER = {
  'Idempotent-Replayed': Type.String({ description: '"true" when this is the kept answer of an earlier request with the same Idempotency-Key' }),
};
const KEY_ERRORS = {
  ...errorResponses({ 409: 'the first request with this Idempotency-Key is still running; retry after Retry-After (conflict)' }, 409),
  ...errorResponses({ 422: 'this Idempotency-Key was used with a different request (idempotency_key_reused)' }, 422),
};

type JsonObject = Record<string, unknown>;

/** Every authenticated POST documents the header, the replay marker and the 409/422 answers. */
function documentKey(schema: JsonObject): JsonObject {
  const headers = (schema.headers as { properties?: JsonObject } | undefined)?.properties ?? {};
  const responses: Record<string, object> = { ...((schema.response as Record<string, JsonObject> | undefined) ?? {}) };
  for (const [status, response] of Object.entries(responses)) {
    const own = (response as JsonObject).headers as JsonObject | undefined;
    if (status.startsWith('2')) responses[status] = { ...response, headers: { ...own, ...REPLAYED_HEADER } };
  }
  for (const [status, response] of Object.entries(KEY_ERRORS)) responses[status] ??= response;
  return { ...schema, headers: Type.Object({ ...headers, ...KEY_HEADER }), response: responses };
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** Answers that are not kept: the request did not run (401, 429) or may be retried (5xx). */
const isKept = (status: number): boolean => status < 500 && status !== 401 && status !== 429;

/**
 * Idempotency-Key for the POSTs marked `idempotent: true` (the pairing routes are public and
 * ignore it; so does every other method). The body is hashed while it is read; the key is claimed
 * in the database after the body is in and validated, so instances share it, and the answer is kept
 * before it is sent, so a retry that follows it sees it.
 */
export function installIdempotency(app: FastifyInstance, service: IdempotencyService): void {
  app.decorateRequest('idempotency', null);

  // Route-level hooks on the routes that take a key: the others (every GET) do not pay for them.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || route.config?.public || !route.schema || route.schema.hide) return;
    const idempotent = route.config?.idempotent;
    if (idempotent === undefined)
      throw new Error(`route POST ${route.url} does not say whether it takes an Idempotency-Key: add config: { idempotent: true | false }`);
    if (!idempotent) return;
    route.schema = documentKey(route.schema as JsonObject);
    route.preParsing = withHook(route.preParsing, readKey);
    route.preHandler = withHook(route.preHandler, claimKey);
    route.onSend = withHook(route.onSend, keepAnswer);
    route.onResponse = withHook(route.onResponse, releaseUnanswered);
  });

  const readKey: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.authUser) return payload;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      const message = 'Idempotency-Key must be 1 to 255 printable ASCII characters';
      throw new AppError('bad_request', message, [{ field: 'Idempotency-Key', message }]);
    }
    request.idempotency = { userId: request.authUser.id, key, bodyHash: observeBody(request.raw), claim: null };
    return payload;
  };

  const claimKey = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const state = request.idempotency;
    if (!state) return undefined;
    const outcome = await service.begin(state.userId, state.key, requestFingerprint(request.method, request.url, state.bodyHash()));
    switch (outcome.kind) {
      case 'run':
        state.claim = outcome.claim;
        return;
      case 'running':
        throw new AppError('conflict', 'a request with this Idempotency-Key is still running; retry in 1 s', { headers: { 'retry-after': '1' } });
      case 'reused':
        throw new AppError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request (method, path or body); use a new key');
      case 'replay': {
        const { answer } = outcome;
        void reply.code(answer.status).headers(answer.headers).header('idempotent-replayed', 'true');
        return reply.send(answer.body ?? null);
      }
    }
  };

  const keepAnswer: onSendAsyncHookHandler = async (request, reply, payload) => {
    const state = request.idempotency;
    const claim = state?.claim;
    if (!state || !claim) return payload;
    state.claim = null;
    try {
      if (isKept(reply.statusCode) && (typeof payload === 'string' || payload === null || payload === undefined)) {
        await service.complete(claim, { status: reply.statusCode, headers: keptHeaders(reply), body: payload ?? null });
      } else {
        await service.release(claim);
      }
    } catch (err) {
      // The answer still goes out; the claim lapses with its lease and the key can then be retried.
      request.log.error({ err }, 'could not keep the answer of an Idempotency-Key request');
    }
    return payload;
  };

  // An answer that never reached onSend (the connection broke first) keeps nothing.
  const releaseUnanswered: onResponseAsyncHookHandler = async (request) => {
    const state = request.idempotency;
    const claim = state?.claim;
    if (!state || !claim) return;
    state.claim = null;
    await service.release(claim);
  };
}
