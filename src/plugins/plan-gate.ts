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

/** Names the way out on a self-hosted server, where no one sells the plan: its owner switches it. */
const PRO_REQUIRED_MESSAGE =
  'this needs the Pro plan; on a self-hosted server its owner switches plans on the admin page (/admin) or with `npm run admin -- user set-plan --email E --plan pro`';

/**
 * Plan gating for routes marked `pro`: after authentication (and the rate limit, which counts the
 * request) and before validation and any work, a free user gets 402 pro_required.
 */
export function installPlanGate(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const marker = request.routeOptions.config.pro;
    const free = marker && request.authUser && request.authUser.plan !== 'pro' && (typeof marker !== 'function' || marker(request));
    done(free ? new AppError('pro_required', PRO_REQUIRED_MESSAGE) : undefined);
  });
}

/** The predicate for capture: only an explicit `organize: true` in a JSON object body is Pro. */
export const organizeRequested = (request: FastifyRequest): boolean => {
  const body: unknown = request.body;
  return typeof body === 'object' && body !== null && (body as { organize?: unknown }).organize === true;
};
