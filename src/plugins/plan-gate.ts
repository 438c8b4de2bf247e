import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Marks a Pro route. `true` gates every call; a predicate gates the calls it returns true for
     * (capture only when `organize: true`). It sees the parsed body before validation.
     */
    pro?: boolean | ((request: FastifyRequest) => boolean);
  }
}

/**
 * Plan gating for routes marked `pro`: after authentication (and the rate limit, which counts the
 * request) and before validation and any work, a free user gets 402 pro_required.
 */
export function installPlanGate(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const marker = request.routeOptions.config.pro;
    if (!marker || !request.authUser || request.authUser.plan === 'pro') return;
    if (typeof marker === 'function' && !marker(request)) return;
    throw new AppError('pro_required', 'this needs the Pro plan; ask the account owner to upgrade');
  });
}

/** The predicate for capture: only an explicit `organize: true` in a JSON object body is Pro. */
export const organizeRequested = (request: FastifyRequest): boolean => {
  const body: unknown = request.body;
  return typeof body === 'object' && body !== null && (body as { organize?: unknown }).organize === true;
};
