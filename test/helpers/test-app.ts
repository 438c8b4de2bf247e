import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createServices, type Services, type WebhookOptions } from '../../src/container.js';
import type { DialectName } from '../../src/db/create-db.js';
import type { Plan } from '../../src/db/schema.js';
import type { Logger } from 'pino';
import type { LimitsConfig, OrganizerConfig, SignupConfig, TranscribeConfig } from '../../src/config.js';
import type { VoiceOptions } from '../../src/modules/voice/voice.service.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { TrustProxy } from '../../src/lib/trust-proxy.js';
import type { RedisStoreOptions } from '../../src/modules/limits/redis-store.js';
import { createTestDb, type TestDb } from './test-db.js';

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
  /** Webhook settings; by default a fixed test SECRET_KEY and a resolver that knows no name (no real DNS). */
  webhooks?: WebhookOptions;
  /** TRUST_PROXY, parsed (default false). */
  trustProxy?: TrustProxy;
  /** ALLOW_SIGNUP and DEFAULT_PLAN (open and free when absent). */
  signup?: SignupConfig;
  /** METRICS_TOKEN and CORS_ORIGINS of the app. */
  metricsToken?: string;
  corsOrigins?: string[];
}

/** A SECRET_KEY for tests (32 bytes, hex). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

/** Tests never ask real DNS: every name is unknown unless a test injects its own resolver. */
const noDnsResolver = async (hostname: string): Promise<never> => {
  throw Object.assign(new Error(`test resolver: ${hostname} is not a test host`), { code: 'ENOTFOUND' });
};

/** Builds the app on a fresh database; nothing listens on a port. */
export async function createTestApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestApp> {
  const queries = { count: 0, reset() { this.count = 0; } };
  const ownsDb = !options.db;
  const db = options.db ?? (await createTestDb(dialect, { onQuery: () => { queries.count += 1; } }));
  const clock = options.clock ?? new ManualClock();
  const services = createServices(db.handle, {
    clock,
    limits: options.limits ?? UNLIMITED,
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.organizer ? { organizer: options.organizer } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.transcribe ? { transcribe: options.transcribe } : {}),
    ...(options.voice ? { voice: options.voice } : {}),
    webhooks: { secretKey: TEST_SECRET_KEY, resolver: noDnsResolver, ...options.webhooks },
    ...(options.signup ? { signup: options.signup } : {}),
  });
  const app = await buildApp({
    config: {
      publicUrl: options.publicUrl ?? 'http://localhost:8080',
      ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
      ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    },
    services,
  });
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
