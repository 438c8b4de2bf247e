import { hostname } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadEnvFile } from '../../src/config.js';
import { describeDatabase } from '../../src/db/database-url.js';

describe('loadConfig', () => {
  it('applies the defaults of operations.md', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      databaseUrl: 'sqlite:./data/inbox.db',
      logLevel: 'info',
      workers: 1,
      trustProxy: false,
      redisUrl: undefined,
      redisKeyPrefix: 'cin:',
      limits: {
        free: { perMinute: 60, perDay: 1000 },
        pro: { perMinute: 300, perDay: 10000 },
        aiDailyQuota: 200,
        pairingPerMinute: 60,
        feeds: { perSecretPerMinute: 30, perIpPerMinute: 120 },
      },
      organizer: { engine: 'local', openai: undefined, timeoutMs: 10000, sentenceEncoder: true },
      transcribe: { engine: 'auto', openai: undefined, searchPath: undefined },
      secretKey: undefined,
      webhooks: { allowPrivateTargets: false, timeoutMs: 10000, retryDelaysMs: [1000, 5000] },
      signup: { allowed: true, defaultPlan: 'free' },
      metricsToken: undefined,
      corsOrigins: [],
      mcp: { maxInFlight: 64, maxInFlightPerUser: 8 },
      mail: { smtpUrl: undefined, from: `Capture Inbox <inbox@${hostname()}>` },
      emailIn: undefined,
      attachments: { filesDir: './data/files', maxBytes: { free: 5 * 1024 * 1024, pro: 25 * 1024 * 1024 } },
    });
  });

  it('reads the email-in settings together, and refuses one without the other or a pattern without {token}', () => {
    expect(loadConfig({ EMAIL_IN_IMAP_URL: 'imaps://a%40b.test:pw@imap.b.test:993/INBOX', EMAIL_IN_ADDRESS: 'inbox+{token}@b.test' }).emailIn).toEqual({
      imapUrl: 'imaps://a%40b.test:pw@imap.b.test:993/INBOX',
      address: 'inbox+{token}@b.test',
    });
    expect(() => loadConfig({ EMAIL_IN_IMAP_URL: 'imaps://a:pw@imap.b.test/INBOX' })).toThrow(/EMAIL_IN_IMAP_URL and EMAIL_IN_ADDRESS go together/);
    expect(() => loadConfig({ EMAIL_IN_IMAP_URL: 'imaps://a:p w@[bad/INBOX', EMAIL_IN_ADDRESS: 'inbox+{token}@b.test' })).toThrow(
      /EMAIL_IN_IMAP_URL is not a URL/,
    );
    expect(() => loadConfig({ EMAIL_IN_IMAP_URL: 'https://imap.b.test', EMAIL_IN_ADDRESS: 'inbox@b.test' })).toThrow(/EMAIL_IN_IMAP_URL .*EMAIL_IN_ADDRESS /);
  });

  it('reads SMTP_URL and SMTP_FROM (operations.md, third wave) and refuses a URL that is not smtp or smtps', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org:465', SMTP_FROM: 'Inbox <a@example.org>' }).mail).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.org:465',
      from: 'Inbox <a@example.org>',
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.org' })).toThrow(/SMTP_URL/);
  });

  it('reads the bounds of the MCP endpoint (docs/mcp.md) and refuses a bound below one', () => {
    expect(loadConfig({ MCP_MAX_IN_FLIGHT: '5', MCP_MAX_IN_FLIGHT_PER_USER: '2' }).mcp).toEqual({ maxInFlight: 5, maxInFlightPerUser: 2 });
    expect(() => loadConfig({ MCP_MAX_IN_FLIGHT: '0', MCP_MAX_IN_FLIGHT_PER_USER: 'many' })).toThrow(/MCP_MAX_IN_FLIGHT .*MCP_MAX_IN_FLIGHT_PER_USER/);
  });

  it('reads ALLOW_SIGNUP, DEFAULT_PLAN, METRICS_TOKEN and CORS_ORIGINS, listing every bad one', () => {
    const config = loadConfig({
      ALLOW_SIGNUP: 'false',
      DEFAULT_PLAN: 'pro',
      METRICS_TOKEN: 'a-long-enough-token',
      CORS_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173',
    });
    expect(config.signup).toEqual({ allowed: false, defaultPlan: 'pro' });
    expect(config.metricsToken).toBe('a-long-enough-token');
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    expect(() => loadConfig({ DEFAULT_PLAN: 'gold', METRICS_TOKEN: 'short', CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(
      /DEFAULT_PLAN.*METRICS_TOKEN.*CORS_ORIGINS/,
    );
  });

  it('reads .env into the environment without overriding what the environment already says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'CIN_TEST_FROM_FILE=file\nCIN_TEST_BOTH=file\n');
    process.env.CIN_TEST_BOTH = 'environment';
    try {
      expect(loadEnvFile(join(dir, 'missing.env'))).toBe(false);
      expect(loadEnvFile(file)).toBe(true);
      expect(process.env.CIN_TEST_FROM_FILE).toBe('file');
      expect(process.env.CIN_TEST_BOTH).toBe('environment');
    } finally {
      delete process.env.CIN_TEST_FROM_FILE;
      delete process.env.CIN_TEST_BOTH;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the organizer settings; the openai engine needs a base URL and a model', () => {
    const config = loadConfig({
      ORGANIZER_ENGINE: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/',
      OPENAI_API_KEY: 'sk-test',
      ORGANIZER_MODEL: 'llama3.2',
      ORGANIZER_TIMEOUT_MS: '2500',
      ORGANIZER_SENTENCE_ENCODER: 'off',
    });
    expect(config.organizer).toEqual({
      engine: 'openai',
      openai: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-test', model: 'llama3.2' },
      timeoutMs: 2500,
      sentenceEncoder: false,
    });
    expect(() => loadConfig({ ORGANIZER_ENGINE: 'openai', ORGANIZER_MODEL: 'm' })).toThrow(/OPENAI_BASE_URL and ORGANIZER_MODEL/);
    expect(() => loadConfig({ ORGANIZER_ENGINE: 'gpt' })).toThrow(ConfigError);
  });

  it('reads the transcription settings; the model defaults to whisper-1', () => {
    const config = loadConfig({
      TRANSCRIBE_ENGINE: 'openai',
      TRANSCRIBE_BASE_URL: 'https://api.example.com/v1/',
      TRANSCRIBE_API_KEY: 'sk-x',
      PATH: '/usr/bin',
    });
    expect(config.transcribe).toEqual({
      engine: 'openai',
      openai: { baseUrl: 'https://api.example.com/v1', apiKey: 'sk-x', model: 'whisper-1' },
      searchPath: '/usr/bin',
    });
    expect(loadConfig({ TRANSCRIBE_BASE_URL: 'http://127.0.0.1:9000/v1', TRANSCRIBE_MODEL: 'small' }).transcribe.openai).toEqual({
      baseUrl: 'http://127.0.0.1:9000/v1',
      apiKey: undefined,
      model: 'small',
    });
  });

  it('refuses an unknown engine, a base URL that is not http(s), and openai without a base URL', () => {
    expect(() => loadConfig({ TRANSCRIBE_ENGINE: 'whisper' })).toThrow(/TRANSCRIBE_ENGINE/);
    expect(() => loadConfig({ TRANSCRIBE_BASE_URL: 'ftp://x' })).toThrow(/TRANSCRIBE_BASE_URL/);
    expect(() => loadConfig({ TRANSCRIBE_ENGINE: 'openai' })).toThrow(/TRANSCRIBE_ENGINE=openai needs TRANSCRIBE_BASE_URL/);
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
    expect(loadConfig({ FEED_RATE_LIMIT_PER_MINUTE: '4', FEED_RATE_LIMIT_PER_IP_PER_MINUTE: '9' }).limits.feeds).toEqual({
      perSecretPerMinute: 4,
      perIpPerMinute: 9,
    });
    expect(() => loadConfig({ FEED_RATE_LIMIT_PER_IP_PER_MINUTE: '0' })).toThrow(/FEED_RATE_LIMIT_PER_IP_PER_MINUTE/);
  });

  it('reads WORKERS as a count or auto (one per core) and refuses anything else', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
    for (const bad of ['0', '-1', 'two', '1.5', '100']) expect(() => loadConfig({ WORKERS: bad })).toThrow(/WORKERS/);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://inbox.example.com/' }).publicUrl).toBe('https://inbox.example.com');
  });

  it('lists every invalid setting in one error', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    for (const setting of ['PORT', 'DATABASE_URL', 'LOG_LEVEL']) expect(attempt).toThrow(new RegExp(`\\b${setting}\\b`));
  });
});

describe('DATABASE_URL', () => {
  const refusal = (url: string): string => {
    try {
      loadConfig({ DATABASE_URL: url });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`${url} was taken`);
  };

  it('takes a SQLite path and a PostgreSQL URL that names its database, /postgres included', () => {
    for (const url of [
      'sqlite:./data/inbox.db',
      'sqlite::memory:',
      'postgres://inbox:s3cret@db.example.com:5432/inbox',
      'postgresql://127.0.0.1/inbox',
      'postgres://postgres@127.0.0.1:5432/postgres',
      'postgres:///inbox?host=/var/run/postgresql',
      'postgres://u@[::1]:5433/my%20inbox',
    ])
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl, url).toBe(url);
  });

  it('refuses a PostgreSQL URL without a database name, which put the tables in the shared postgres database', () => {
    for (const url of ['postgres://postgres@127.0.0.1:5432', 'postgres://postgres:pw@127.0.0.1:5432/', 'postgresql://db.example.com']) {
      const message = refusal(url);
      expect(message, url).toMatch(/DATABASE_URL names no database/);
      expect(message, url).toMatch(/\/postgres/);
      expect(message, url).not.toContain('pw@');
    }
  });

  it('names the setting for an unknown scheme or a URL that does not parse, and never repeats a password', () => {
    expect(refusal('mysql://root:hunter2@127.0.0.1/inbox')).toMatch(
      /^invalid settings: DATABASE_URL must start with sqlite: \(a file\) or postgres:\/\/ \(a server\), not mysql:$/,
    );
    expect(refusal('./data/inbox.db')).toMatch(/DATABASE_URL must start with sqlite:/);
    const malformed = refusal('postgres://inbox:hunter2@db.example.com:port/inbox');
    expect(malformed).toMatch(/DATABASE_URL is not a valid URL .*percent-encoded/);
    for (const message of [malformed, refusal('mysql://root:hunter2@127.0.0.1/inbox')]) expect(message).not.toContain('hunter2');
  });
});

describe('describeDatabase', () => {
  it('says which database without the password: dialect, host, port, name and user, or the SQLite file', () => {
    expect(describeDatabase('postgres://inbox:hunter2@db.example.com:6543/inbox?password=x')).toEqual({
      dialect: 'postgres',
      host: 'db.example.com',
      port: 6543,
      database: 'inbox',
      user: 'inbox',
    });
    expect(describeDatabase('postgresql://[::1]/my%20inbox')).toEqual({ dialect: 'postgres', host: '::1', port: 5432, database: 'my inbox' });
    expect(describeDatabase('sqlite:./data/inbox.db')).toEqual({ dialect: 'sqlite', file: resolve('data/inbox.db') });
    expect(describeDatabase('sqlite::memory:')).toEqual({ dialect: 'sqlite', file: ':memory:' });
  });
});

describe('TRUST_PROXY', () => {
  it('keeps true and false, and takes a hop count or a list of proxy addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', '::1']);
  });

  it('refuses anything else, naming the setting', () => {
    for (const value of ['yes', '10.0.0.300', '17', 'proxy.example.com', ',']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
});
