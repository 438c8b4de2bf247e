import { afterEach, describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../src/config.js';
import { DIALECTS } from '../helpers/dialects.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { removeRedisKeys, testRedis, type TestRedis } from '../helpers/redis.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { UNLIMITED, client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

const FREE_DEFAULTS: LimitsConfig = { ...UNLIMITED, free: { perMinute: 60, perDay: 1000 } };

describe.each(DIALECTS)('Redis-backed limits (%s)', (dialect) => {
  const opened: TestApp[] = [];
  const targets: TestRedis[] = [];
  const proxies: TcpProxy[] = [];

  afterEach(async () => {
    for (const t of opened.splice(0).reverse()) await t.close();
    for (const proxy of proxies.splice(0)) await proxy.stop();
    for (const target of targets.splice(0)) await removeRedisKeys(target);
  });

  it('serves requests when Redis is unreachable, logging the failure and counting it in /metrics', async () => {
    const { logger, lines } = capturingLogger();
    // Port 1 on loopback: nothing listens there, so every connection is refused.
    const t = await createTestApp(dialect, {
      limits: FREE_DEFAULTS,
      redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'unreachable:' },
      logger,
    });
    opened.push(t);
    const api = client(t.app, (await createUser(t)).token);
    for (let i = 0; i < 70; i += 1) expect((await api.get('me')).status).toBe(200);
    expect(lines.some((line) => line.level === 50 && String(line.msg).includes('rate-limit store failed'))).toBe(true);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/capture_inbox_rate_limit_store_errors_total 70/);
  });

  describe.runIf(process.env.TEST_REDIS_URL)('with the local Redis', () => {
    it('shares one budget between two instances: 60 requests over both pass, the 61st is 429', async () => {
      const redis = testRedis();
      targets.push(redis);
      const first = await createTestApp(dialect, { limits: FREE_DEFAULTS, redis });
      opened.push(first);
      const second = await createTestApp(dialect, { limits: FREE_DEFAULTS, redis, db: first.db, clock: first.clock });
      opened.push(second);
      const user = await createUser(first);
      const apis = [client(first.app, user.token), client(second.app, user.token)];
      for (let i = 0; i < 60; i += 1) expect((await apis[i % 2]!.get('me')).status).toBe(200);
      const limited = await apis[0]!.get('me');
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ scope: 'minute', limit_per_minute: 60 });
      expect((await apis[1]!.get('me')).status).toBe(429);
    });

    it('resumes counting when Redis comes back after an outage', async () => {
      const redis = testRedis();
      targets.push(redis);
      const proxy = new TcpProxy(Number(new URL(redis.url).port || 6379));
      proxies.push(proxy);
      await proxy.start();
      const { logger } = capturingLogger();
      const t = await createTestApp(dialect, {
        limits: { ...UNLIMITED, free: { perMinute: 5, perDay: 1000 } },
        redis: { ...redis, url: `redis://127.0.0.1:${proxy.port}` },
        logger,
      });
      opened.push(t);
      const api = client(t.app, (await createUser(t)).token);
      expect((await api.get('me')).headers['x-ratelimit-remaining']).toBe('4');

      await proxy.stop();
      for (let i = 0; i < 10; i += 1) expect((await api.get('me')).status).toBe(200);
      const failures = (await t.services.metrics.rateLimitStoreErrors.get()).values[0]?.value ?? 0;
      expect(failures).toBeGreaterThanOrEqual(10);

      await proxy.start();
      // The client reconnects on its own; counting picks up where Redis left it (1 counted).
      await waitFor(async () => (await api.get('me')).headers['x-ratelimit-remaining'] !== '5', {
        timeoutMs: 15_000,
        intervalMs: 100,
        what: 'counting to resume',
      });
      let status = 200;
      for (let i = 0; i < 6 && status === 200; i += 1) status = (await api.get('me')).status;
      expect(status).toBe(429);
    });
  });
});
