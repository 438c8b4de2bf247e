import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { LimitsService, RequestDecision, WindowState } from '../modules/limits/limits.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Unauthenticated routes limited per client IP instead of per user (the pairing routes). */
    ipRateLimit?: boolean;
  }
}

/** The contract's headers: X-RateLimit-* for the minute window, the IETF draft pair for both. */
function setRateLimitHeaders(reply: FastifyReply, windows: readonly WindowState[]): void {
  const [minute] = windows;
  if (minute) {
    void reply.header('x-ratelimit-limit', String(minute.limit));
    void reply.header('x-ratelimit-remaining', String(minute.remaining));
    void reply.header('x-ratelimit-reset', String(minute.reset));
  }
  void reply.header('ratelimit-policy', windows.map((w) => `"${w.scope}";q=${w.limit};w=${w.length}`).join(', '));
  void reply.header('ratelimit', windows.map((w) => `"${w.scope}";r=${w.remaining};t=${w.reset}`).join(', '));
}

/** The user's decision applied to the reply: its headers, and a 429 when it refused. */
function userOutcome(reply: FastifyReply, user: { plan: string }, decision: RequestDecision): AppError | undefined {
  setRateLimitHeaders(reply, decision.windows);
  if (decision.allowed) return undefined;
  const [minute, day] = decision.windows;
  const retryAfter = decision.retryAfter ?? minute.reset;
  return new AppError(
    'rate_limited',
    `${decision.scope === 'day' ? 'daily' : 'per-minute'} request limit of the ${user.plan} plan reached; retry in ${retryAfter} s`,
    {
      fields: { scope: decision.scope ?? 'minute', retry_after: retryAfter, limit_per_minute: minute.limit, limit_per_day: day.limit },
      headers: { 'retry-after': String(retryAfter) },
    },
  );
}

async function checkClientIp(limits: LimitsService, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const decision = await limits.checkClientIp(request.ip);
  setRateLimitHeaders(reply, [decision.window]);
  if (decision.allowed) return;
  throw new AppError('rate_limited', `too many requests from this address; retry in ${decision.retryAfter} s`, {
    fields: { scope: 'minute', retry_after: decision.retryAfter, limit_per_minute: decision.window.limit },
    headers: { 'retry-after': String(decision.retryAfter) },
  });
}

/**
 * Counts every authenticated request of the scope (after bearer auth, so 401s never count) and
 * every request to a route marked `ipRateLimit`. A refused request is not counted (see the store).
 * A callback hook: with the in-process store the user's decision comes in the same turn, and the
 * hook then costs no promise on every API request.
 */
export function installRateLimits(app: FastifyInstance, limits: LimitsService): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.ipRateLimit) {
      checkClientIp(limits, request, reply).then(() => done(), done);
      return;
    }
    const user = request.authUser;
    if (!user) {
      done();
      return;
    }
    const decision = limits.checkUserRequest(user);
    if (decision instanceof Promise) decision.then((answer) => done(userOutcome(reply, user, answer)), done);
    else done(userOutcome(reply, user, decision));
  });
}
