import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { containerOptionsFrom, type ServiceSettings } from '../../src/container-options.js';
import { ManualClock } from '../../src/lib/clock.js';

/** Every setting the services read changed from its default, as an operator would set them. */
const ENV = {
  RATE_LIMIT_FREE_PER_MINUTE: '7',
  RATE_LIMIT_PRO_PER_DAY: '70',
  AI_DAILY_QUOTA: '3',
  REDIS_URL: 'redis://127.0.0.1:6390',
  REDIS_KEY_PREFIX: 'other:',
  ORGANIZER_ENGINE: 'openai',
  OPENAI_BASE_URL: 'http://127.0.0.1:9000/v1',
  ORGANIZER_MODEL: 'small',
  TRANSCRIBE_ENGINE: 'openai',
  TRANSCRIBE_BASE_URL: 'http://127.0.0.1:9001/v1',
  SECRET_KEY: 'ab'.repeat(32),
  WEBHOOK_TIMEOUT_MS: '250',
  WEBHOOK_RETRY_DELAYS_MS: '10,20',
  ALLOW_SIGNUP: 'false',
  DEFAULT_PLAN: 'pro',
};

/**
 * One other value for each setting the services read. The type makes a setting added to
 * ServiceSettings fail to compile here until it is listed, and the test below then checks it
 * reaches the options.
 */
const CHANGED: { [K in keyof ServiceSettings]-?: ServiceSettings[K] } = {
  limits: { free: { perMinute: 1, perDay: 2 }, pro: { perMinute: 3, perDay: 4 }, aiDailyQuota: 5, pairingPerMinute: 6 },
  redisUrl: 'redis://127.0.0.1:6391',
  redisKeyPrefix: 'changed:',
  organizer: { engine: 'local', openai: undefined, timeoutMs: 123 },
  transcribe: { engine: 'pocketsphinx', openai: undefined, searchPath: '/opt/speech/bin' },
  secretKey: Buffer.alloc(32, 1),
  webhooks: { allowPrivateTargets: true, timeoutMs: 99, retryDelaysMs: [1, 2] },
  signup: { allowed: true, defaultPlan: 'free' },
  emailIn: { imapUrl: 'imap://reader:secret@127.0.0.1:1143/INBOX', address: 'inbox+{token}@example.com' },
};

describe('containerOptionsFrom', () => {
  it('gives the services every setting they read: limits, Redis, organizer, transcription, webhooks and sign-up', () => {
    const config = loadConfig(ENV);
    expect(containerOptionsFrom(config)).toEqual({
      limits: { free: { perMinute: 7, perDay: 1000 }, pro: { perMinute: 300, perDay: 70 }, aiDailyQuota: 3, pairingPerMinute: 60 },
      redis: { url: 'redis://127.0.0.1:6390', keyPrefix: 'other:' },
      organizer: { engine: 'openai', openai: { baseUrl: 'http://127.0.0.1:9000/v1', apiKey: undefined, model: 'small' }, timeoutMs: 10000 },
      transcribe: { engine: 'openai', openai: { baseUrl: 'http://127.0.0.1:9001/v1', apiKey: undefined, model: 'whisper-1' }, searchPath: undefined },
      webhooks: { secretKey: Buffer.alloc(32, 0xab), delivery: { allowPrivateTargets: false, timeoutMs: 250, retryDelaysMs: [10, 20] } },
      signup: { allowed: false, defaultPlan: 'pro' },
    });
  });

  it('lets no setting fall by the way: changing any one of them changes the options', () => {
    const base = loadConfig(ENV);
    const before = containerOptionsFrom(base);
    for (const key of Object.keys(CHANGED) as Array<keyof ServiceSettings>) {
      const after = containerOptionsFrom({ ...base, [key]: CHANGED[key] });
      expect(after, key).not.toEqual(before);
    }
  });

  it('counts in process memory and leaves webhook keys unsealed when neither REDIS_URL nor SECRET_KEY is set', () => {
    const options = containerOptionsFrom(loadConfig({}));
    expect(options.redis).toBeUndefined();
    expect(options.webhooks?.secretKey).toBeUndefined();
    expect(options.webhooks?.delivery).toEqual({ allowPrivateTargets: false, timeoutMs: 10000, retryDelaysMs: [1000, 5000] });
  });

  it('adds what the caller injects beside the settings, without losing a setting', () => {
    const clock = new ManualClock();
    const logger = pino({ level: 'silent' });
    const resolver = async (): Promise<never> => {
      throw new Error('no DNS in this test');
    };
    const options = containerOptionsFrom(loadConfig(ENV), {
      clock,
      logger,
      processMetrics: true,
      redis: { commandTimeoutMs: 5_000 },
      webhooks: { resolver, ca: ['PEM'] },
    });
    expect(options).toMatchObject({
      clock,
      logger,
      processMetrics: true,
      redis: { url: 'redis://127.0.0.1:6390', keyPrefix: 'other:', commandTimeoutMs: 5_000 },
      webhooks: { secretKey: Buffer.alloc(32, 0xab), delivery: { timeoutMs: 250 }, resolver, ca: ['PEM'] },
      signup: { allowed: false, defaultPlan: 'pro' },
    });
  });
});
