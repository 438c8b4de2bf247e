import { Type } from 'typebox';

/*
 * The rate-limit settings' shapes and defaults (operations.md), apart from config.ts so that file
 * stays small; config.ts reads them. The calendar feeds' limits (docs/caldav.md, decisions/0095):
 * reads a minute of one feed URL from anywhere, and feed reads a minute from one client address,
 * right or wrong secret.
 */
export const FEED_LIMIT_SETTINGS = {
  FEED_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 30 }),
  FEED_RATE_LIMIT_PER_IP_PER_MINUTE: Type.Integer({ minimum: 1, default: 120 }),
};

export interface FeedLimits {
  readonly perSecretPerMinute: number;
  readonly perIpPerMinute: number;
}

export const DEFAULT_FEED_LIMITS: FeedLimits = Object.freeze({ perSecretPerMinute: 30, perIpPerMinute: 120 });

export function feedLimits(raw: { FEED_RATE_LIMIT_PER_MINUTE: number; FEED_RATE_LIMIT_PER_IP_PER_MINUTE: number }): FeedLimits {
  return Object.freeze({ perSecretPerMinute: raw.FEED_RATE_LIMIT_PER_MINUTE, perIpPerMinute: raw.FEED_RATE_LIMIT_PER_IP_PER_MINUTE });
}

export interface PlanLimits {
  readonly perMinute: number;
  readonly perDay: number;
}

export interface LimitsConfig {
  readonly free: PlanLimits;
  readonly pro: PlanLimits;
  readonly aiDailyQuota: number;
  /** Unauthenticated pairing routes, per client IP (contract: 60 a minute). */
  readonly pairingPerMinute: number;
  /** GET /feeds/{secret}.ics, per feed URL and per client IP (decisions/0095); DEFAULT_FEED_LIMITS when absent. */
  readonly feeds?: FeedLimits;
}

export const DEFAULT_LIMITS: LimitsConfig = Object.freeze({
  free: Object.freeze({ perMinute: 60, perDay: 1000 }),
  pro: Object.freeze({ perMinute: 300, perDay: 10000 }),
  aiDailyQuota: 200,
  pairingPerMinute: 60,
  feeds: DEFAULT_FEED_LIMITS,
});
