import { existsSync } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { ATTACHMENT_SETTINGS, attachmentsConfig, type AttachmentsConfig } from './config-attachments.js';
import { DEFAULT_LIMITS, FEED_LIMIT_SETTINGS, feedLimits, type LimitsConfig } from './config-limits.js';
export { DEFAULT_LIMITS, type LimitsConfig, type PlanLimits } from './config-limits.js';
import { databaseUrlProblem } from './db/database-url.js';
import { parseSecretKey } from './lib/secret-key.js';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy.js';
import { parseTrustedTargets, type TrustedTargets } from './lib/trusted-targets.js';

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  // Checked by databaseUrlProblem, whose messages say what is wrong without echoing a password.
  DATABASE_URL: Type.String({ minLength: 1, default: 'sqlite:./data/inbox.db' }),
  // Server processes sharing the port: a number, or `auto` for one per CPU core.
  WORKERS: Type.String({ pattern: '^(auto|[1-9][0-9]?)$', default: '1' }),
  LOG_LEVEL: Type.String({ enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
  // true/false, a hop count, or the proxies' addresses (src/lib/trust-proxy.ts).
  TRUST_PROXY: Type.String({ minLength: 1, default: 'false' }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_KEY_PREFIX: Type.String({ default: 'cin:' }),
  RATE_LIMIT_FREE_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_FREE_PER_DAY: Type.Integer({ minimum: 1, default: 1000 }),
  RATE_LIMIT_PRO_PER_MINUTE: Type.Integer({ minimum: 1, default: 300 }),
  RATE_LIMIT_PRO_PER_DAY: Type.Integer({ minimum: 1, default: 10000 }),
  AI_DAILY_QUOTA: Type.Integer({ minimum: 0, default: 200 }),
  ORGANIZER_ENGINE: Type.Union([Type.Literal('local'), Type.Literal('openai')], { default: 'local' }),
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  OPENAI_API_KEY: Type.Optional(Type.String()),
  ORGANIZER_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  ORGANIZER_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10000 }),
  ORGANIZER_SENTENCE_ENCODER: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  TRANSCRIBE_ENGINE: Type.String({ enum: ['auto', 'pocketsphinx', 'openai'], default: 'auto' }),
  TRANSCRIBE_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TRANSCRIBE_API_KEY: Type.Optional(Type.String()),
  TRANSCRIBE_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  // Not a setting of ours: where the engines' executables (ffmpeg, pocketsphinx) are looked up.
  PATH: Type.Optional(Type.String()),
  SECRET_KEY: Type.Optional(Type.String()),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({ default: false }),
  // Host names, addresses and CIDR ranges trusted although private (src/lib/trusted-targets.ts).
  PRIVATE_TARGETS_ALLOW: Type.Optional(Type.String()),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 10_000 }),
  // Exactly two delays: the spec's three attempts are fixed, only their spacing is a setting.
  WEBHOOK_RETRY_DELAYS_MS: Type.String({ pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$', default: '1000,5000' }),
  ALLOW_SIGNUP: Type.Boolean({ default: true }),
  DEFAULT_PLAN: Type.Union([Type.Literal('free'), Type.Literal('pro')], { default: 'free' }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  // Comma list of exact origins (scheme://host[:port]).
  CORS_ORIGINS: Type.Optional(Type.String({ pattern: '^\\s*https?://[^,\\s/]+(\\s*,\\s*https?://[^,\\s/]+)*\\s*$' })),
  // Reminder mail (contract "Reminders"): smtp://user:pass@host:587 or smtps://…
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3 })),
  MCP_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 64 }),
  MCP_MAX_IN_FLIGHT_PER_USER: Type.Integer({ minimum: 1, default: 8 }),
  // Email to inbox (docs/email-in.md): the mailbox read, and the users' address pattern.
  EMAIL_IN_IMAP_URL: Type.Optional(Type.String({ pattern: '^imaps?://' })),
  EMAIL_IN_ADDRESS: Type.Optional(Type.String({ pattern: '^[^@\\s]*\\{token\\}[^@\\s]*@[^@\\s]+$' })),
  ...ATTACHMENT_SETTINGS,
  ...FEED_LIMIT_SETTINGS,
});

export interface OrganizerConfig {
  readonly engine: 'local' | 'openai';
  /** Any OpenAI-compatible chat-completions API; set when the engine is `openai`. */
  readonly openai: { readonly baseUrl: string; readonly apiKey: string | undefined; readonly model: string } | undefined;
  /** How long one `openai` answer may take before the local engine decides instead. */
  readonly timeoutMs: number;
  /**
   * The local engine routes with the sentence encoder when it is installed (about 180 MB of memory
   * once loaded); false (ORGANIZER_SENTENCE_ENCODER=off): the word vectors. Unset: true.
   */
  readonly sentenceEncoder?: boolean;
}

export type TranscribeEngineSetting = 'auto' | 'pocketsphinx' | 'openai';

export interface OpenAiTranscribeConfig {
  /** Up to and including /v1, as OpenAI's own clients take it; /audio/transcriptions is appended. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
}

export interface TranscribeConfig {
  readonly engine: TranscribeEngineSetting;
  /** Present when TRANSCRIBE_BASE_URL is set. */
  readonly openai: OpenAiTranscribeConfig | undefined;
  readonly searchPath: string | undefined;
}

const DEFAULT_TRANSCRIBE_MODEL = 'whisper-1'; // OpenAI's own transcription model, used when TRANSCRIBE_MODEL is unset

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly databaseUrl: string;
  readonly logLevel: string;
  /** Server processes (WORKERS); more than one shares counters through the primary process or Redis. */
  readonly workers: number;
  /** Behind a proxy: which X-Forwarded-For hops to trust for the client address: `true` all, a hop count, or the proxies' addresses. */
  readonly trustProxy: TrustProxy;
  /** When set, rate-limit and quota counters live in Redis, shared by every instance. */
  readonly redisUrl: string | undefined;
  readonly redisKeyPrefix: string;
  readonly limits: LimitsConfig;
  readonly organizer: OrganizerConfig;
  readonly transcribe: TranscribeConfig;
  /** SECRET_KEY decoded; undefined means the server generates ./data/secret.key on first start. */
  readonly secretKey: Buffer | undefined;
  readonly webhooks: WebhookDeliveryConfig;
  readonly signup: SignupConfig;
  /** When set, GET /metrics needs `Authorization: Bearer <it>`. */
  readonly metricsToken: string | undefined;
  /** Origins allowed to call /api/v1 from a browser; empty means no CORS headers at all. */
  readonly corsOrigins: readonly string[];
  /** Bounds of the hosted /mcp endpoint's requests in flight (docs/mcp.md). */
  readonly mcp: McpConfig;
  /** Where reminder mail goes out (SMTP_URL, SMTP_FROM); without smtpUrl, email channels cannot be created. */
  readonly mail: MailConfig;
  /** Email to inbox, when EMAIL_IN_IMAP_URL and EMAIL_IN_ADDRESS are both set. */
  readonly emailIn: EmailInConfig | undefined;
  readonly attachments: AttachmentsConfig;
}

export interface MailConfig {
  readonly smtpUrl: string | undefined;
  readonly from: string;
}

export interface EmailInConfig {
  /** `imaps://user:pass@host:993/INBOX`: the mailbox read (its path; INBOX when none). */
  readonly imapUrl: string;
  /** The address pattern with `{token}`, e.g. `inbox+{token}@example.com`. */
  readonly address: string;
}

export interface McpConfig {
  readonly maxInFlight: number;
  readonly maxInFlightPerUser: number;
}

export const DEFAULT_MCP: McpConfig = Object.freeze({ maxInFlight: 64, maxInFlightPerUser: 8 });

export interface SignupConfig {
  /** false: the web sign-up is closed whatever the admin page says (the owner creates users). */
  readonly allowed: boolean;
  /** The plan of users created by sign-up. */
  readonly defaultPlan: 'free' | 'pro';
}

/** Where `.env` is looked for: the working directory, as operations.md says. */
const ENV_FILE = '.env';

/**
 * Reads `.env` into process.env when present, before loadConfig. Node's own reader never
 * overwrites a variable the environment already has, so the real environment wins.
 */
export function loadEnvFile(path: string = ENV_FILE): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

export interface WebhookDeliveryConfig {
  /** Testing only: lifts the address checks (loopback, private ranges); https and name rules stay. */
  readonly allowPrivateTargets: boolean;
  /** PRIVATE_TARGETS_ALLOW: private destinations the owner trusts (http allowed); absent when empty. */
  readonly trustedTargets?: TrustedTargets;
  readonly timeoutMs: number;
  /** Delays before attempts 2 and 3. */
  readonly retryDelaysMs: readonly number[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the settings of operations.md once; every invalid setting is listed in one error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') given[key] = value;
  }
  // TypeBox's interpreter, not Ajv: the schema is checked once per process, and compiling it with
  // Ajv cost 50-80 ms, a sixth of the server's start-up (docs/performance.md).
  const raw = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, given));
  const valid = Value.Check(ConfigSchema, raw);
  const problems = valid ? [] : [...new Set(Value.Errors(ConfigSchema, raw).map((e) => `${e.instancePath.slice(1) || 'config'} ${e.message}`))];
  /** A setting read by its own parser; a parser's complaint joins the others in the one error. */
  const parsed = <T>(name: string, parse: (text: string) => T, fallback: T): T => {
    const text = given[name];
    if (typeof text !== 'string') return fallback;
    try {
      return parse(text);
    } catch (error) {
      problems.push(`${name} ${(error as Error).message}`);
      return fallback;
    }
  };
  const secretKey = parsed<Buffer | undefined>('SECRET_KEY', parseSecretKey, undefined);
  const databaseProblem = typeof given.DATABASE_URL === 'string' ? databaseUrlProblem(given.DATABASE_URL) : null;
  if (databaseProblem) problems.push(databaseProblem);
  const trustProxy = parsed<TrustProxy>('TRUST_PROXY', parseTrustProxy, false);
  const trustedTargets = parsed<TrustedTargets | undefined>('PRIVATE_TARGETS_ALLOW', parseTrustedTargets, undefined);
  if (!valid || problems.length > 0) throw new ConfigError(`invalid settings: ${problems.join('; ')}`);
  if (raw.ORGANIZER_ENGINE === 'openai' && (!raw.OPENAI_BASE_URL || !raw.ORGANIZER_MODEL)) {
    throw new ConfigError('invalid settings: ORGANIZER_ENGINE=openai needs OPENAI_BASE_URL and ORGANIZER_MODEL');
  }
  if (raw.EMAIL_IN_IMAP_URL !== undefined && !URL.canParse(raw.EMAIL_IN_IMAP_URL)) {
    throw new ConfigError('invalid settings: EMAIL_IN_IMAP_URL is not a URL (imaps://user:password@host:993/INBOX, user and password percent-encoded)');
  }
  if ((raw.EMAIL_IN_IMAP_URL === undefined) !== (raw.EMAIL_IN_ADDRESS === undefined)) {
    throw new ConfigError('invalid settings: EMAIL_IN_IMAP_URL and EMAIL_IN_ADDRESS go together (set both, or neither)');
  }
  if (raw.TRANSCRIBE_ENGINE === 'openai' && !raw.TRANSCRIBE_BASE_URL) {
    throw new ConfigError('invalid settings: TRANSCRIBE_ENGINE=openai needs TRANSCRIBE_BASE_URL');
  }
  return Object.freeze({
    port: raw.PORT,
    host: raw.HOST,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    databaseUrl: raw.DATABASE_URL,
    logLevel: raw.LOG_LEVEL,
    workers: raw.WORKERS === 'auto' ? availableParallelism() : Number(raw.WORKERS),
    trustProxy,
    redisUrl: raw.REDIS_URL,
    redisKeyPrefix: raw.REDIS_KEY_PREFIX,
    limits: Object.freeze({
      free: Object.freeze({ perMinute: raw.RATE_LIMIT_FREE_PER_MINUTE, perDay: raw.RATE_LIMIT_FREE_PER_DAY }),
      pro: Object.freeze({ perMinute: raw.RATE_LIMIT_PRO_PER_MINUTE, perDay: raw.RATE_LIMIT_PRO_PER_DAY }),
      aiDailyQuota: raw.AI_DAILY_QUOTA,
      pairingPerMinute: DEFAULT_LIMITS.pairingPerMinute,
      feeds: feedLimits(raw),
    }),
    organizer: Object.freeze({
      engine: raw.ORGANIZER_ENGINE,
      openai:
        raw.OPENAI_BASE_URL && raw.ORGANIZER_MODEL
          ? Object.freeze({ baseUrl: raw.OPENAI_BASE_URL.replace(/\/+$/, ''), apiKey: raw.OPENAI_API_KEY, model: raw.ORGANIZER_MODEL })
          : undefined,
      timeoutMs: raw.ORGANIZER_TIMEOUT_MS,
      sentenceEncoder: raw.ORGANIZER_SENTENCE_ENCODER === 'on',
    }),
    transcribe: Object.freeze({
      engine: raw.TRANSCRIBE_ENGINE as TranscribeEngineSetting,
      openai: raw.TRANSCRIBE_BASE_URL
        ? Object.freeze({
            baseUrl: raw.TRANSCRIBE_BASE_URL.replace(/\/+$/, ''),
            apiKey: raw.TRANSCRIBE_API_KEY,
            model: raw.TRANSCRIBE_MODEL ?? DEFAULT_TRANSCRIBE_MODEL,
          })
        : undefined,
      searchPath: raw.PATH,
    }),
    secretKey,
    webhooks: Object.freeze({
      allowPrivateTargets: raw.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      ...(trustedTargets && (trustedTargets.names.size > 0 || trustedTargets.ranges.length > 0) ? { trustedTargets } : {}),
      timeoutMs: raw.WEBHOOK_TIMEOUT_MS,
      retryDelaysMs: Object.freeze(raw.WEBHOOK_RETRY_DELAYS_MS.split(',').map((d) => Number(d.trim()))),
    }),
    signup: Object.freeze({ allowed: raw.ALLOW_SIGNUP, defaultPlan: raw.DEFAULT_PLAN }),
    metricsToken: raw.METRICS_TOKEN,
    corsOrigins: Object.freeze(
      (raw.CORS_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    ),
    mcp: Object.freeze({ maxInFlight: raw.MCP_MAX_IN_FLIGHT, maxInFlightPerUser: raw.MCP_MAX_IN_FLIGHT_PER_USER }),
    mail: Object.freeze({ smtpUrl: raw.SMTP_URL, from: raw.SMTP_FROM ?? `Capture Inbox <inbox@${hostname()}>` }),
    emailIn: raw.EMAIL_IN_IMAP_URL && raw.EMAIL_IN_ADDRESS ? Object.freeze({ imapUrl: raw.EMAIL_IN_IMAP_URL, address: raw.EMAIL_IN_ADDRESS }) : undefined,
    attachments: attachmentsConfig(raw),
  });
}
