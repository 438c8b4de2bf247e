import { afterEach, describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../src/config.js';
import { DIALECTS } from '../helpers/dialects.js';
import { loadOpenApiValidator } from '../helpers/openapi-validator.js';
import { STORES, removeRedisKeys, testRedis, type TestRedis } from '../helpers/redis.js';
import { UNLIMITED, client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

const limits = (free: { perMinute: number; perDay: number }, pro = { perMinute: 1000, perDay: 1000 }): LimitsConfig => ({
  ...UNLIMITED,
  free,
  pro,
});

describe.each(DIALECTS.flatMap((dialect) => STORES.map((store) => [dialect, store] as const)))('rate limits (%s, %s store)', (dialect, store) => {
  const opened: TestApp[] = [];
  const redisTargets: TestRedis[] = [];

  afterEach(async () => {
    for (const t of opened.splice(0)) await t.close();
    for (const target of redisTargets.splice(0)) await removeRedisKeys(target);
  });

  async function setup(config: LimitsConfig): Promise<TestApp> {
    const redis = store === 'redis' ? testRedis() : undefined;
    if (redis) redisTargets.push(redis);
    const t = await createTestApp(dialect, { limits: config, ...(redis ? { redis } : {}) });
    opened.push(t);
    return t;
  }

  describe('per-minute limit', () => {
    it('counts down in the headers, then answers 429 with the exact body and Retry-After', async () => {
      const t = await setup(limits({ perMinute: 3, perDay: 100 }));
      const api = client(t.app, (await createUser(t)).token);
      for (const remaining of [2, 1, 0]) {
        const res = await api.get('me');
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
        expect(res.headers['x-ratelimit-reset']).toBe('60');
        expect(res.headers['ratelimit-policy']).toBe('"minute";q=3;w=60, "day";q=100;w=86400');
        // The clock stands at 10:00:00 UTC: 14 hours to midnight.
        expect(res.headers.ratelimit).toBe(`"minute";r=${remaining};t=60, "day";r=${97 + remaining};t=50400`);
      }
      const limited = await api.get('me');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
      expect(limited.body).toEqual({
        error: 'rate_limited',
        message: expect.stringMatching(/per-minute/),
        scope: 'minute',
        retry_after: 60,
        limit_per_minute: 3,
        limit_per_day: 100,
      });
      const openapi = await loadOpenApiValidator(t.app);
      openapi.validateResponse('GET', '/api/v1/me', 429, limited.body);
    });

    it('does not count requests refused with 429', async () => {
      const t = await setup(limits({ perMinute: 2, perDay: 100 }));
      const api = client(t.app, (await createUser(t)).token);
      for (let i = 0; i < 2; i += 1) expect((await api.get('me')).status).toBe(200);
      for (let i = 0; i < 10; i += 1) expect((await api.get('me')).status).toBe(429);
      t.clock.advance(60_000);
      const next = await api.get('me');
      expect(next.status).toBe(200);
      expect(next.headers.ratelimit).toMatch(/"day";r=97;/);
    });

    it('resets at the next whole minute, not 60 s after the first request', async () => {
      const t = await setup(limits({ perMinute: 1, perDay: 100 }));
      t.clock.set('2026-11-21T10:00:59.500Z');
      const api = client(t.app, (await createUser(t)).token);
      const first = await api.get('me');
      expect(first.headers['x-ratelimit-reset']).toBe('1');
      const limited = await api.get('me');
      expect(limited.status).toBe(429);
      expect(limited.body.retry_after).toBe(1);
      t.clock.advance(500);
      expect((await api.get('me')).status).toBe(200);
    });

    it('counts error answers too, and every authenticated response carries the headers', async () => {
      const t = await setup(limits({ perMinute: 2, perDay: 100 }));
      const api = client(t.app, (await createUser(t)).token);
      const missing = await api.get('items/00000000-0000-7000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.headers['x-ratelimit-remaining']).toBe('1');
      expect((await api.post('capture', { text: 5 })).status).toBe(400);
      expect((await api.get('me')).status).toBe(429);
    });
  });

  describe('per-day limit', () => {
    it('answers 429 with scope day and Retry-After until UTC midnight', async () => {
      const t = await setup(limits({ perMinute: 10, perDay: 3 }));
      const api = client(t.app, (await createUser(t)).token);
      for (let i = 0; i < 3; i += 1) expect((await api.get('me')).status).toBe(200);
      const limited = await api.get('me');
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: 'rate_limited', scope: 'day', retry_after: 50_400, limit_per_minute: 10, limit_per_day: 3 });
      expect(limited.headers['retry-after']).toBe('50400');
    });

    it('reports scope day when both windows are full', async () => {
      const t = await setup(limits({ perMinute: 2, perDay: 2 }));
      const api = client(t.app, (await createUser(t)).token);
      for (let i = 0; i < 2; i += 1) expect((await api.get('me')).status).toBe(200);
      const limited = await api.get('me');
      expect(limited.body.scope).toBe('day');
      expect(limited.body.retry_after).toBe(50_400);
    });

    it('resets at UTC midnight', async () => {
      const t = await setup(limits({ perMinute: 10, perDay: 1 }));
      t.clock.set('2026-11-21T23:59:58.000Z');
      const api = client(t.app, (await createUser(t)).token);
      expect((await api.get('me')).status).toBe(200);
      const limited = await api.get('me');
      expect(limited.headers['retry-after']).toBe('2');
      t.clock.advance(2_000);
      expect((await api.get('me')).status).toBe(200);
    });
  });

  describe('who is counted', () => {
    it('does not count 401s, whatever the key', async () => {
      const t = await setup(limits({ perMinute: 2, perDay: 100 }));
      const user = await createUser(t);
      await t.services.keys.revoke(user.keyId);
      const fresh = await t.services.keys.mint(user.id, 'second');
      // A wrong secret: the last character changed (to one it is not), so the token never matches.
      const wrongSecret = `${fresh.token.slice(0, -1)}${fresh.token.endsWith('x') ? 'y' : 'x'}`;
      for (const token of [undefined, 'garbage', user.token, wrongSecret]) {
        for (let i = 0; i < 3; i += 1) expect((await client(t.app, token).get('me')).status).toBe(401);
      }
      const api = client(t.app, fresh.token);
      expect((await api.get('me')).headers['x-ratelimit-remaining']).toBe('1');
    });

    it('counts per user, not per key, and never across users', async () => {
      const t = await setup(limits({ perMinute: 2, perDay: 100 }));
      const user = await createUser(t);
      const second = await t.services.keys.mint(user.id, 'second');
      expect((await client(t.app, user.token).get('me')).status).toBe(200);
      expect((await client(t.app, second.token).get('me')).status).toBe(200);
      expect((await client(t.app, user.token).get('me')).status).toBe(429);
      const other = await createUser(t);
      expect((await client(t.app, other.token).get('me')).status).toBe(200);
    });

    it('applies a plan change at once', async () => {
      const t = await setup(limits({ perMinute: 2, perDay: 100 }, { perMinute: 5, perDay: 100 }));
      const user = await createUser(t);
      const api = client(t.app, user.token);
      for (let i = 0; i < 2; i += 1) expect((await api.get('me')).status).toBe(200);
      expect((await api.get('me')).status).toBe(429);
      await t.services.users.setPlan(user.email, 'pro');
      const upgraded = await api.get('me');
      expect(upgraded.status).toBe(200);
      expect(upgraded.headers['x-ratelimit-limit']).toBe('5');
      expect(upgraded.headers['x-ratelimit-remaining']).toBe('2');
    });
  });
});
