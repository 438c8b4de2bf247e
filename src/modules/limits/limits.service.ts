import type { Logger } from 'pino';
import { createHash } from 'node:crypto';
import { DEFAULT_FEED_LIMITS } from '../../config-limits.js';
import type { LimitsConfig, PlanLimits } from '../../config.js';
import type { Plan } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ConsumeResult, CounterSpec, CounterStore } from './counter-store.js';
import { currentWindow, secondsUntil, type FixedWindow, type Scope } from './windows.js';

export interface WindowState {
  scope: Scope;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  /** Window length in seconds. */
  length: number;
}

export interface RequestDecision {
  allowed: boolean;
  /** The minute window first, then the day window. */
  windows: [WindowState, WindowState];
  /** When refused: the window that refused (day wins when both are full) and when to retry. */
  scope?: Scope;
  retryAfter?: number;
}

export interface LimitsService {
  readonly storeKind: CounterStore['kind'];
  limitsFor(plan: Plan): PlanLimits;
  /**
   * Counts one authenticated request, unless it is over a limit (then nothing is counted). The
   * decision comes at once when the counters are in this process, as a promise otherwise.
   */
  checkUserRequest(user: { id: string; plan: Plan }): RequestDecision | Promise<RequestDecision>;
  /** Counts one organizer run against the daily AI quota; 429 ai_rate_limited past it. */
  consumeAiRun(user: { id: string }): Promise<void>;
  /** Counts one unauthenticated request of a client IP (the pairing routes). */
  checkClientIp(ip: string): Promise<{ allowed: boolean; window: WindowState; retryAfter: number }>;
  /**
   * Counts one fetch of a public feed URL, per client IP and then per secret (kept as a digest),
   * before the secret is looked up: a refusal says nothing of whether it is a feed's.
   */
  checkFeedFetch(secret: string, ip: string): Promise<{ allowed: boolean; retryAfter: number }>;
  /** Waits (bounded) until the counter store can count; false when it still cannot. */
  ready(maxWaitMs: number): Promise<boolean>;
  /**
   * Counts one web sign-in (or sign-up, with `emailKey` null) against the per-IP and then the
   * per-account-and-address budget of LOGIN_LIMITS; a budget that refuses is not counted.
   */
  checkLoginAttempt(emailKey: string | null, ip: string): Promise<{ allowed: boolean; retryAfter: number }>;
  /**
   * True at most once per `intervalMs`-long fixed window for `key` (the pairing exchange's poll
   * pace). Two calls less than the interval apart may both pass only across a window edge, and
   * calls at least the interval apart always pass.
   */
  checkPace(key: string, intervalMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Web sign-in attempts, successful or not: enough for a person who mistypes, far too few to guess a
 * password. Per account they are keyed with the address too, so nobody can lock another user out
 * by failing on purpose from elsewhere; per address, one machine trying many accounts is slowed.
 */
const LOGIN_LIMITS = Object.freeze({
  perAccountAtAddress: Object.freeze({ perMinute: 10, perDay: 100 }),
  perIp: Object.freeze({ perMinute: 30, perDay: 1000 }),
});

/** While the store is down every request would log; once per interval is enough to be noticed. */
const STORE_ERROR_LOG_INTERVAL_MS = 10_000;

export function createLimitsService(deps: { store: CounterStore; config: LimitsConfig; clock: Clock; metrics: Metrics; logger: Logger }): LimitsService {
  const { store, config, clock } = deps;
  let lastErrorLog = 0;

  /** Fails open: a broken store must not take the API down with it. */
  function failOpen(specs: readonly CounterSpec[], error: unknown): ConsumeResult {
    deps.metrics.rateLimitStoreErrors.inc();
    const now = Date.now();
    if (now - lastErrorLog >= STORE_ERROR_LOG_INTERVAL_MS) {
      lastErrorLog = now;
      deps.logger.error({ err: error, store: store.kind }, 'rate-limit store failed; serving requests without limits until it is back');
    }
    return { allowed: true, counts: specs.map(() => 0) };
  }

  /** The store's answer: at once from the in-process store, a promise from one elsewhere. */
  function consume(specs: CounterSpec[]): ConsumeResult | Promise<ConsumeResult> {
    try {
      if (store.consumeNow) return store.consumeNow(specs);
      return store.consume(specs).catch((error: unknown) => failOpen(specs, error));
    } catch (error) {
      return failOpen(specs, error);
    }
  }

  const spec = (key: string, limit: number, window: FixedWindow, now: Date): CounterSpec => ({
    key: `${key}:${window.id}`,
    limit,
    // The window id is part of the key, so the TTL only collects garbage: a whole extra window
    // keeps a counter alive for instances whose clocks lag (or a test's frozen clock) without
    // ever letting a counter outlive its usefulness by more than one window.
    ttlMs: window.endsAt - now.getTime() + window.length * 1000,
  });

  const state = (window: FixedWindow, limit: number, count: number, now: Date): WindowState => ({
    scope: window.scope,
    limit,
    remaining: Math.max(0, limit - count),
    reset: secondsUntil(window.endsAt, now),
    length: window.length,
  });

  const limitsFor = (plan: Plan): PlanLimits => (plan === 'pro' ? config.pro : config.free);

  return {
    storeKind: store.kind,
    limitsFor,

    checkUserRequest(user) {
      const now = clock.now();
      const limits = limitsFor(user.plan);
      const minute = currentWindow('minute', now);
      const day = currentWindow('day', now);
      // The hash tag keeps both counters of a user in one Redis Cluster slot, as the script needs.
      const key = `rl:{u:${user.id}}`;
      const decide = (result: ConsumeResult): RequestDecision => {
        const [minuteCount = 0, dayCount = 0] = result.counts;
        const windows: [WindowState, WindowState] = [state(minute, limits.perMinute, minuteCount, now), state(day, limits.perDay, dayCount, now)];
        if (result.allowed) return { allowed: true, windows };
        const scope: Scope = dayCount >= limits.perDay ? 'day' : 'minute';
        return { allowed: false, windows, scope, retryAfter: scope === 'day' ? windows[1].reset : windows[0].reset };
      };
      const result = consume([spec(key, limits.perMinute, minute, now), spec(key, limits.perDay, day, now)]);
      return result instanceof Promise ? result.then(decide) : decide(result);
    },

    async consumeAiRun(user) {
      const now = clock.now();
      const day = currentWindow('day', now);
      const result = await consume([spec(`ai:{u:${user.id}}`, config.aiDailyQuota, day, now)]);
      if (result.allowed) return;
      const retryAfter = secondsUntil(day.endsAt, now);
      throw new AppError('ai_rate_limited', `the daily AI quota of ${config.aiDailyQuota} organizer runs is used up; it resets at 00:00 UTC`, {
        fields: { retry_after: retryAfter },
        headers: { 'retry-after': String(retryAfter) },
      });
    },

    async checkClientIp(ip) {
      const now = clock.now();
      const minute = currentWindow('minute', now);
      const result = await consume([spec(`ip:{${ip}}`, config.pairingPerMinute, minute, now)]);
      const window = state(minute, config.pairingPerMinute, result.counts[0] ?? 0, now);
      return { allowed: result.allowed, window, retryAfter: window.reset };
    },

    async checkFeedFetch(secret, ip) {
      const now = clock.now();
      const minute = currentWindow('minute', now);
      const feeds = config.feeds ?? DEFAULT_FEED_LIMITS;
      // Per IP first: a guesser tries a new secret each time, so only the address slows them.
      const secretKey = createHash('sha256').update(secret).digest('base64url').slice(0, 22);
      for (const [key, limit] of [
        [`feed:{ip:${ip}}`, feeds.perIpPerMinute],
        [`feed:{s:${secretKey}}`, feeds.perSecretPerMinute],
      ] as const) {
        const result = await consume([spec(key, limit, minute, now)]);
        if (!result.allowed) return { allowed: false, retryAfter: secondsUntil(minute.endsAt, now) };
      }
      return { allowed: true, retryAfter: 0 };
    },

    ready: (maxWaitMs) => store.ready(maxWaitMs),
    async checkLoginAttempt(emailKey, ip) {
      const now = clock.now();
      const [minute, day] = [currentWindow('minute', now), currentWindow('day', now)];
      // One consume per subject: each keeps its two counters in one Redis Cluster slot.
      const subjects: [string, PlanLimits][] = [[`login:{ip:${ip}}`, LOGIN_LIMITS.perIp]];
      if (emailKey !== null) subjects.push([`login:{ip:${ip}|e:${emailKey}}`, LOGIN_LIMITS.perAccountAtAddress]);
      for (const [key, limits] of subjects) {
        const result = await consume([spec(key, limits.perMinute, minute, now), spec(key, limits.perDay, day, now)]);
        if (result.allowed) continue;
        const dayFull = (result.counts[1] ?? 0) >= limits.perDay;
        return { allowed: false, retryAfter: secondsUntil((dayFull ? day : minute).endsAt, now) };
      }
      return { allowed: true, retryAfter: 0 };
    },

    async checkPace(key, intervalMs) {
      const now = clock.now().getTime();
      const window = Math.floor(now / intervalMs);
      const result = await consume([{ key: `pace:{${key}}:${window}`, limit: 1, ttlMs: (window + 2) * intervalMs - now }]);
      return result.allowed;
    },

    close: () => store.close(),
  };
}
