import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LimitsService } from '../modules/limits/limits.service.js';
import type { AuthUser } from '../schemas/auth-user.js';
import type { Clock } from '../lib/clock.js';
import { localeFrom, type DateContext } from './dates.js';
import { webContext } from './session.js';

/** A web session acts as its user without an API key. */
export function actingUser(request: FastifyRequest): AuthUser | null {
  const user = webContext(request).user;
  return user ? { ...user, keyId: null } : null;
}

/** Dates on this request's pages: the user's zone, the browser's locale, the service clock. */
export function dateContext(request: FastifyRequest, zone: string, clock: Clock): DateContext {
  return { zone, locale: localeFrom(request.headers['accept-language']), now: clock.now() };
}

/** The zone and locale of a page that shows past moments (settings pages: no "today" to compare with). */
export const zoneAndLocale = (request: FastifyRequest, zone: string): Pick<DateContext, 'zone' | 'locale'> => ({
  zone,
  locale: localeFrom(request.headers['accept-language']),
});

/**
 * A change made from the web counts against the plan's limits exactly like the same change
 * through the API (one request each), so the web app is no way around them. Null when allowed.
 */
export async function overLimit(limits: LimitsService, user: AuthUser, reply: FastifyReply): Promise<string | null> {
  const decision = await limits.checkUserRequest(user);
  if (decision.allowed) return null;
  const retryAfter = decision.retryAfter ?? decision.windows[0].reset;
  void reply.header('retry-after', String(retryAfter));
  return `You reached the ${decision.scope === 'day' ? 'daily' : 'per-minute'} limit of the ${user.plan} plan. Try again in ${retryAfter} seconds.`;
}

/** Where a signed-out browser goes: the sign-in page, then back to `next`. */
export const signInFirst = (reply: FastifyReply, next: string): FastifyReply =>
  reply.redirect(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`, 303);
