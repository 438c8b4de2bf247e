import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/create-db.js';
import type { Clock } from '../lib/clock.js';
import type { IdGenerator } from '../lib/ids.js';
import type { StoragePorts } from '../storage-ports.js';
import type { DeliveryInjections } from '../modules/deliveries/deliveries.js';
import type { ReaderSettings } from '../modules/email-in/reader-settings.js';
import type { CounterStore } from '../modules/limits/counter-store.js';
import type { RedisStoreOptions } from '../modules/limits/redis-store.js';
import type { WakeupRelay } from '../modules/live/live-hub.js';
import type { LiveOptions } from '../modules/live/live.service.js';
import type { WakeupSource } from '../modules/live/wakeups.js';
import type { VoiceOptions } from '../modules/voice/voice.service.js';

/** The settings the services read; the rest of Config is the HTTP layer's or the process's. */
export type ServiceSettings = Pick<
  Config,
  'limits' | 'redisUrl' | 'redisKeyPrefix' | 'organizer' | 'transcribe' | 'secretKey' | 'webhooks' | 'signup' | 'publicUrl' | 'mail' | 'emailIn' | 'attachments'
>;

/** The deliveries module's injections (DNS, CAs, worker pace), under the name callers know. */
export type WebhookInjections = DeliveryInjections;

/**
 * What a caller adds that is not a setting: its logger, the cluster link, and what tests inject
 * (clock, DNS, outbound HTTP, tighter timeouts). No setting can be given here, so services are only
 * ever built from a configuration.
 */
export interface Injections {
  clock?: Clock;
  newId?: IdGenerator;
  logger?: Logger;
  /** Outbound HTTP of the `openai` organizer engine; tests pass one that only reaches 127.0.0.1. */
  fetch?: typeof fetch;
  /** Bounds and injection points of transcription (outbound HTTP, temp directory, timeouts). */
  voice?: Partial<VoiceOptions>;
  /** Redis client tuning (timeouts); where Redis is and its key prefix are settings. */
  redis?: Omit<RedisStoreOptions, 'url' | 'keyPrefix'>;
  webhooks?: WebhookInjections;
  /** In a cluster worker: counters and metrics that span every worker (see src/cluster). */
  cluster?: ClusterWorkerLink;
  /** prom-client's process metrics in GET /metrics (the server process; tests leave them out). */
  processMetrics?: boolean;
  /** Pause between the reminder scheduler's passes (a reminder fires within this much of its time, plus delivery). */
  reminderPollMs?: number;
  /** Live change streams: the per-user cap and the keep-alive interval (tests shorten it; the contract's are the default). */
  live?: Partial<LiveOptions>;
  /** The email-in reader's pace (tests shorten it); where it reads is a setting. */
  emailInReader?: Partial<ReaderSettings>;
}

/** A database as openDatabase opens it: with the source of its commit wake-ups (src/modules/live). */
export type ServiceDb = DbHandle & { wakeups?: WakeupSource };

/** What createServices is built from: the database, its dialect's storage ports and the settings, all required. */
export interface ServiceInputs {
  db: ServiceDb;
  /** storagePortsFor(db.dialect): the one place that asks which database it is. */
  ports: StoragePorts;
  config: ServiceSettings;
  inject?: Injections;
}

export interface ClusterWorkerLink {
  /** Used when no Redis is configured. */
  counterStore: CounterStore;
  /** Makes this worker's registry part of every worker's GET /metrics. */
  shareMetrics(registry: Registry): void;
  renderMetrics(): Promise<string>;
  /** Commit wake-ups of the live streams, relayed by the primary between the workers. */
  wakeups?: WakeupRelay;
}
