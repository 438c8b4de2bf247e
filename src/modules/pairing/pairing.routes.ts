import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { errorResponses } from '../../schemas/common.js';
import { ExchangeBody, ExchangeResponse, StartBody, StartResponse } from './pairing.schemas.js';

const tags = ['pairing'];
// No bearer key (the client has none yet); the per-IP budget limits them instead.
const config = { public: true, ipRateLimit: true };
const security: Array<Record<string, string[]>> = [];

export const pairingRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'pairing'>> = async (app, { pairing }) => {
  app.post(
    '/connect/start',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'startPairing',
        summary: 'Start a browser pairing',
        description:
          'Registers a single-use state for 10 minutes. The user then approves at {base_url}/connect/agent?state=<state>, where they may untick any of the scopes asked for.',
        body: StartBody,
        response: {
          200: StartResponse,
          ...errorResponses({ 409: 'this state was already used (conflict); nothing changed' }, 400, 409, 413, 415, 429),
        },
      },
    },
    async (request) => pairing.start(request.body),
  );

  app.post(
    '/connect/exchange',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'exchangePairing',
        summary: 'Exchange an approved pairing for an API key',
        description: 'Poll about every 2 s. 425 until the user approves; then 200 with the key, exactly once.',
        body: ExchangeBody,
        response: {
          200: ExchangeResponse,
          ...errorResponses(
            {
              403: 'the user denied the request (access_denied); restart',
              404: 'unknown state (not_found); restart',
              409: 'the key was already retrieved (already_exchanged); restart',
              410: 'the 10 minutes are over (expired); restart',
            },
            400,
            403,
            404,
            409,
            410,
            413,
            415,
            425,
            429,
          ),
          425: Type.Unsafe({
            ...errorResponses({ 425: 'not approved yet (not_approved); poll again after Retry-After seconds' }, 425)[425],
            // @fastify/swagger turns this into the response's documented headers.
            headers: { 'Retry-After': Type.Integer({ description: 'seconds to wait before the next poll: 2' }) },
          }),
        },
      },
    },
    async (request, reply) => {
      const key = await pairing.exchange(request.body.state);
      // The token is a credential: no cache may keep this response.
      void reply.header('cache-control', 'no-store');
      return key;
    },
  );
};
