import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createServices, type Injections, type Services, type WebhookInjections } from '../../src/container.js';
import type { DbHandle, DialectName } from '../../src/db/create-db.js';
import { storagePortsFor } from '../../src/storage-ports.js';
import type { Plan } from '../../src/db/schema.js';
import type { Logger } from 'pino';
import {
  loadConfig,
  type Config,
  type EmailInConfig,
  type LimitsConfig,
  type OrganizerConfig,
  type SignupConfig,
  type TranscribeConfig,
  type WebhookDeliveryConfig,
} from '../../src/config.js';
import type { ReaderSettings } from '../../src/modules/email-in/reader-settings.js';
import type { VoiceOptions } from '../../src/modules/voice/voice.service.js';
import type { LiveOptions } from '../../src/modules/live/live.service.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { TrustProxy } from '../../src/lib/trust-proxy.js';
import type { RedisStoreOptions } from '../../src/modules/limits/redis-store.js';
import { createTestDb, type TestDb } from './test-db.js';
import { systemSearchPath } from './system-programs.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  clock: ManualClock;
  db: TestDb;
  /** Counts queries since the last reset; for "constant number of queries" checks. */
  queries: { count: number; reset(): void };
  close(): Promise<void>;
}

// Test bodies are asserted field by field against the contract; a loose type keeps that short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one sanctioned any (eslint.config.js)
export type JsonBody = any;

export interface Response<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

/** Limits no ordinary test reaches; tests of the limiter pass their own. */
export const UNLIMITED: LimitsConfig = {
  free: { perMinute: 1_000_000_000, perDay: 1_000_000_000 },
  pro: { perMinute: 1_000_000_000, perDay: 1_000_000_000 },
  aiDailyQuota: 1_000_000_000,
  pairingPerMinute: 1_000_000_000,
};

export interface TestAppOptions {
  limits?: LimitsConfig;
  redis?: RedisStoreOptions;
  logger?: Logger;
  /** Reuse a database another test app created (several instances on one database). */
  db?: TestDb;
  clock?: ManualClock;
  /** The organizer engine and its settings (the local engine when absent). */
  organizer?: OrganizerConfig;
  /** Outbound HTTP of the `openai` organizer engine. */
  fetch?: typeof fetch;
  /** Transcription settings (default: engine auto, which finds pocketsphinx when installed). */
  transcribe?: Partial<TranscribeConfig>;
  voice?: Partial<VoiceOptions>;
  /** PUBLIC_URL of the app (https makes its cookies Secure). */
  publicUrl?: string;
  /** Webhook delivery settings and injections; the SECRET_KEY is always TEST_SECRET_KEY, the resolver by default one that knows no name (no real DNS). */
  webhooks?: WebhookInjections & { delivery?: WebhookDeliveryConfig };
  /** TRUST_PROXY, parsed (default false). */
  trustProxy?: TrustProxy;
  /** ALLOW_SIGNUP and DEFAULT_PLAN (open and free when absent). */
  signup?: SignupConfig;
  /** METRICS_TOKEN and CORS_ORIGINS of the app. */
  metricsToken?: string;
  corsOrigins?: string[];
  /** SMTP_URL and SMTP_FROM (no SMTP when absent). */
  mail?: Config['mail'];
  /** Live change streams: a short keep-alive interval, another cap. */
  live?: Partial<LiveOptions>;
  /** EMAIL_IN_IMAP_URL and EMAIL_IN_ADDRESS (email-in off when absent); the reader is started by the test. */
  emailIn?: EmailInConfig;
  emailInReader?: Partial<ReaderSettings>;
  /** FILES_DIR (a fresh temporary folder, removed at close, when absent) and the per-file limits. */
  attachments?: Partial<Config['attachments']>;
}

/** A SECRET_KEY for tests (32 bytes, hex). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

/** Tests never ask real DNS: every name is unknown unless a test injects its own resolver. */
const noDnsResolver = async (hostname: string): Promise<never> => {
  throw Object.assign(new Error(`test resolver: ${hostname} is not a test host`), { code: 'ENOTFOUND' });
};

/** What an empty environment configures; read once, as loadConfig compiles its schema each call. */
const DEFAULT_CONFIG = loadConfig({});

/**
 * The settings a test app runs with: loadConfig's defaults (no environment read) with what the test
 * asks for, so a test app's services are built through the same mapping as the server's.
 */
function testConfig(options: TestAppOptions = {}, filesDir = DEFAULT_CONFIG.attachments.filesDir): Config {
  return {
    ...DEFAULT_CONFIG,
    publicUrl: options.publicUrl ?? DEFAULT_CONFIG.publicUrl,
    trustProxy: options.trustProxy ?? DEFAULT_CONFIG.trustProxy,
    metricsToken: options.metricsToken,
    corsOrigins: options.corsOrigins ?? DEFAULT_CONFIG.corsOrigins,
    limits: options.limits ?? UNLIMITED,
    redisUrl: options.redis?.url,
    redisKeyPrefix: options.redis?.keyPrefix ?? DEFAULT_CONFIG.redisKeyPrefix,
    organizer: options.organizer ?? DEFAULT_CONFIG.organizer,
    // The engine looks for ffmpeg and pocketsphinx where the tests do (TEST_SYSTEM_PATH can hide them).
    transcribe: { ...DEFAULT_CONFIG.transcribe, searchPath: systemSearchPath(), ...options.transcribe },
    secretKey: TEST_SECRET_KEY,
    webhooks: options.webhooks?.delivery ?? DEFAULT_CONFIG.webhooks,
    signup: options.signup ?? DEFAULT_CONFIG.signup,
    mail: options.mail ?? DEFAULT_CONFIG.mail,
    emailIn: options.emailIn,
    attachments: { ...DEFAULT_CONFIG.attachments, filesDir, ...options.attachments },
  };
}

/**
 * Services on a database a test opened itself, built from an empty environment's settings (no
 * SECRET_KEY, the default limits), as a process with no configuration would build them.
 */
export function defaultServices(handle: DbHandle, inject: Injections = {}): Services {
  return createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: DEFAULT_CONFIG, inject });
}

/** Builds the app on a fresh database; nothing listens on a port. */
export async function createTestApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestApp> {
  const queries = {
    count: 0,
    reset() {
      this.count = 0;
    },
  };
  const ownsDb = !options.db;
  const db =
    options.db ??
    (await createTestDb(dialect, {
      onQuery: () => {
        queries.count += 1;
      },
    }));
  const clock = options.clock ?? new ManualClock();
  // Each app stores its files in its own folder, never in the working directory's ./data/files.
  const ownFilesDir = options.attachments?.filesDir === undefined ? mkdtempSync(join(tmpdir(), 'cin-files-')) : undefined;
  const config = testConfig(options, ownFilesDir);
  // Delivery settings are in the config above; what is left of the test's webhook options is injected.
  const { delivery: _delivery, ...webhookInjections } = options.webhooks ?? {};
  const { url: _url, keyPrefix: _keyPrefix, ...redisTuning }: Partial<RedisStoreOptions> = options.redis ?? {};
  const services = createServices({
    db: db.handle,
    ports: storagePortsFor(db.handle.dialect),
    config,
    inject: {
      clock,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.voice ? { voice: options.voice } : {}),
      ...(options.live ? { live: options.live } : {}),
      redis: redisTuning,
      webhooks: { resolver: noDnsResolver, ...webhookInjections },
      ...(options.emailInReader ? { emailInReader: options.emailInReader } : {}),
    },
  });
  const app = await buildApp({ config, services });
  await app.ready();
  // Counting starts with the store's first connection; tests of the limiter start after it.
  await services.limits.ready(10_000);
  return {
    app,
    services,
    clock,
    db,
    queries,
    async close() {
      await app.close();
      await services.close();
      if (ownsDb) await db.destroy();
      if (ownFilesDir) rmSync(ownFilesDir, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  keyId: string;
  inboxId: string;
}

let userCounter = 0;

/** A user with an API key, made through the same services the admin CLI uses. */
export async function createUser(t: TestApp, plan: Plan = 'free'): Promise<TestUser> {
  userCounter += 1;
  const email = `user${userCounter}-${Date.now()}@example.test`;
  const user = await t.services.users.create({ email, plan });
  const { key_id, token } = await t.services.keys.mint(user.id, 'test');
  const inbox = await t.services.projects.requireInbox(t.services.db, user.id);
  return { id: user.id, email, token, keyId: key_id, inboxId: inbox.id };
}

/** A small HTTP client over fastify.inject, bound to one user's key. */
export function client(app: FastifyInstance, token?: string) {
  async function send<T>(method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    const res = await app.inject({
      method,
      url: url.startsWith('/') ? url : `/api/v1/${url}`,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = res.body;
    let parsed: unknown = undefined;
    if (text && String(res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: res.statusCode, body: parsed as T, headers: res.headers, text };
  }
  return {
    get: <T = JsonBody>(url: string, headers?: Record<string, string>) => send<T>('GET', url, undefined, headers),
    post: <T = JsonBody>(url: string, body?: unknown, headers?: Record<string, string>) => send<T>('POST', url, body, headers),
    patch: <T = JsonBody>(url: string, body?: unknown, headers?: Record<string, string>) => send<T>('PATCH', url, body, headers),
    delete: <T = JsonBody>(url: string, headers?: Record<string, string>) => send<T>('DELETE', url, undefined, headers),
    send,
  };
}

export type Client = ReturnType<typeof client>;
