import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DEFAULT_LIMITS, type LimitsConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { CounterStore } from '../../src/modules/limits/counter-store.js';
import { createLimitsService, type LimitsService } from '../../src/modules/limits/limits.service.js';
import { createMemoryStore } from '../../src/modules/limits/memory-store.js';
import { createRedisStore } from '../../src/modules/limits/redis-store.js';
import { createMetrics } from '../../src/modules/metrics/metrics.js';
import { installErrorHandlers } from '../../src/plugins/error-handler.js';
import { installRateLimits } from '../../src/plugins/rate-limit.js';
import { STORES, removeRedisKeys, testRedis, type StoreName, type TestRedis } from '../helpers/redis.js';

describe.each(STORES)('quotas (%s store)', (storeName: StoreName) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function limitsService(config: LimitsConfig, clock: ManualClock): LimitsService {
    let store: CounterStore;
    if (storeName === 'redis') {
      const target: TestRedis = testRedis();
      store = createRedisStore(target);
      cleanups.push(() => removeRedisKeys(target));
    } else {
      store = createMemoryStore(clock);
    }
    const service = createLimitsService({ store, config, clock, metrics: createMetrics(), logger: pino({ level: 'silent' }) });
    cleanups.push(() => service.close());
    return service;
  }

  describe('AI quota', () => {
    it('allows the configured runs a UTC day, then 429 ai_rate_limited with retry_after to midnight', async () => {
      const clock = new ManualClock(new Date('2026-11-21T22:00:00.000Z'));
      const limits = limitsService({ ...DEFAULT_LIMITS, aiDailyQuota: 2 }, clock);
      const user = { id: 'user-a' };
      await limits.consumeAiRun(user);
      await limits.consumeAiRun(user);
      const refused = await limits.consumeAiRun(user).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(AppError);
      const error = refused as AppError;
      expect(error.statusCode).toBe(429);
      expect(error.code).toBe('ai_rate_limited');
      expect(error.fields).toEqual({ retry_after: 7200 });
      expect(error.headers).toEqual({ 'retry-after': '7200' });
      // Another user has a quota of their own; the next UTC day starts afresh.
      await limits.consumeAiRun({ id: 'user-b' });
      clock.set('2026-11-22T00:00:00.000Z');
      await limits.consumeAiRun(user);
    });

    it('is separate from the request limits', async () => {
      const clock = new ManualClock();
      const limits = limitsService({ ...DEFAULT_LIMITS, aiDailyQuota: 1, free: { perMinute: 1, perDay: 1 } }, clock);
      expect((await limits.checkUserRequest({ id: 'u', plan: 'free' })).allowed).toBe(true);
      await limits.consumeAiRun({ id: 'u' });
      expect((await limits.checkUserRequest({ id: 'u', plan: 'free' })).allowed).toBe(false);
    });
  });

  describe('per-IP limit of the unauthenticated routes', () => {
    it('allows 60 a minute per address and answers the 61st with 429 and Retry-After', async () => {
      const clock = new ManualClock();
      const limits = limitsService(DEFAULT_LIMITS, clock);
      const app = Fastify();
      installErrorHandlers(app);
      installRateLimits(app, limits);
      app.post('/connect/start', { config: { ipRateLimit: true } }, async () => ({ ok: true }));
      await app.ready();
      cleanups.push(() => app.close());

      const from = (ip: string) => app.inject({ method: 'POST', url: '/connect/start', remoteAddress: ip });
      for (let i = 0; i < 60; i += 1) expect((await from('127.0.0.1')).statusCode).toBe(200);
      const limited = await from('127.0.0.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.json()).toEqual({
        error: 'rate_limited',
        message: expect.any(String),
        scope: 'minute',
        retry_after: 60,
        limit_per_minute: 60,
      });
      expect((await from('127.0.0.2')).statusCode).toBe(200);
      clock.advance(60_000);
      expect((await from('127.0.0.1')).statusCode).toBe(200);
    });
  });
});
