import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('applies the defaults of operations.md', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      databaseUrl: 'sqlite:./data/inbox.db',
      logLevel: 'info',
      trustProxy: false,
      redisUrl: undefined,
      redisKeyPrefix: 'cin:',
      limits: {
        free: { perMinute: 60, perDay: 1000 },
        pro: { perMinute: 300, perDay: 10000 },
        aiDailyQuota: 200,
        pairingPerMinute: 60,
      },
      secretKey: undefined,
      webhooks: { allowPrivateTargets: false, timeoutMs: 10000, retryDelaysMs: [1000, 5000] },
    });
  });

  it('reads the webhook settings and SECRET_KEY in hex or base64', () => {
    const hex = 'ab'.repeat(32);
    const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '250', WEBHOOK_RETRY_DELAYS_MS: '10, 50', SECRET_KEY: hex });
    expect(config.webhooks).toEqual({ allowPrivateTargets: true, timeoutMs: 250, retryDelaysMs: [10, 50] });
    expect(config.secretKey).toEqual(Buffer.from(hex, 'hex'));
    const b64 = Buffer.alloc(48, 9).toString('base64');
    expect(loadConfig({ SECRET_KEY: b64 }).secretKey).toEqual(Buffer.alloc(48, 9));
  });

  it('refuses a short SECRET_KEY and malformed webhook settings without echoing the key', () => {
    const attempt = () => loadConfig({ SECRET_KEY: 'c2hvcnQ=', WEBHOOK_RETRY_DELAYS_MS: '1000', WEBHOOK_TIMEOUT_MS: '0' });
    expect(attempt).toThrow(/WEBHOOK_TIMEOUT_MS.*WEBHOOK_RETRY_DELAYS_MS.*SECRET_KEY must hold at least 32 bytes/s);
    expect(attempt).not.toThrow(/c2hvcnQ/);
  });

  it('reads the rate-limit settings', () => {
    const config = loadConfig({ RATE_LIMIT_FREE_PER_MINUTE: '5', RATE_LIMIT_PRO_PER_DAY: '7', AI_DAILY_QUOTA: '3', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(config.limits.free.perMinute).toBe(5);
    expect(config.limits.pro.perDay).toBe(7);
    expect(config.limits.aiDailyQuota).toBe(3);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://inbox.example.com/' }).publicUrl).toBe('https://inbox.example.com');
  });

  it('lists every invalid setting in one error', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT.*DATABASE_URL.*LOG_LEVEL/s);
  });
});
