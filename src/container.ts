import { pino, type Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import type { Db } from './db/schema.js';
import { systemClock, type Clock } from './lib/clock.js';
import { newId as defaultNewId, type IdGenerator } from './lib/ids.js';
import { createBulkService, type BulkService } from './modules/bulk/bulk.service.js';
import { createAccountsService, type AccountsService } from './modules/accounts/accounts.service.js';
import { createAccountSettingsService, type AccountSettingsService } from './modules/accounts/account-settings.service.js';
import { createEventsService, type EventsService } from './modules/events/events.service.js';
import { createIdempotencyService, type IdempotencyService } from './modules/idempotency/idempotency.service.js';
import { createItemEdits } from './modules/items/single-item-edits.js';
import { createItemWrites } from './modules/items/write-changes.js';
import { createItemLoader } from './modules/items/item-loader.js';
import { createItemsService, type ItemsService } from './modules/items/items.service.js';
import { createImportedItems } from './modules/items/imported-items.js';
import type { StoragePorts } from './storage-ports.js';
import { createSubtasksService, type SubtasksService } from './modules/capture/add-subtask.js';
import { createCaptureService, type CaptureService } from './modules/capture/capture.service.js';
import { createSchedule } from './modules/capture/schedule.js';
import { createInstanceService, type InstanceService } from './modules/instance/instance.service.js';
import { createKeysService, type KeysService } from './modules/keys/keys.service.js';
import { findUnrevokedKeyIds } from './modules/keys/keys.repository.js';
import { createLiveHub, type WakeupRelay } from './modules/live/live-hub.js';
import { createStreamRegistry } from './modules/live/stream-registry.js';
import { createLiveService, DEFAULT_LIVE, type LiveOptions, type LiveService } from './modules/live/live.service.js';
import type { WakeupSource } from './modules/live/wakeups.js';
import type { CounterStore } from './modules/limits/counter-store.js';
import { createLimitsService, type LimitsService } from './modules/limits/limits.service.js';
import { createMemoryStore } from './modules/limits/memory-store.js';
import { createRedisStore, type RedisStoreOptions } from './modules/limits/redis-store.js';
import { countedEngine } from './modules/metrics/counted-engine.js';
import { createMetrics, type Metrics } from './modules/metrics/metrics.js';
import { createOrganizerEngine } from './modules/organizer/engines.js';
import { createRoutingLearner } from './modules/organizer/learning/routing-learner.js';
import { createOrganizerService, type OrganizerService } from './modules/organizer/organizer.service.js';
import { createPairingService, type PairingService } from './modules/pairing/pairing.service.js';
import { createProjectsService, type ProjectsService } from './modules/projects/projects.service.js';
import { createSearchService, type SearchService } from './modules/search/search.service.js';
import { createTagsService, type TagsService } from './modules/tags/tags.service.js';
import { createQuickAddService, type QuickAddService } from './modules/quick-add/quick-add.service.js';
import { createRecurrenceService, type RecurrenceService } from './modules/recurrence/recurrence.service.js';
import { advanceRecurring } from './modules/recurrence/recurring-completion.js';
import { createExportService } from './modules/transfer/export.service.js';
import { createImportService } from './modules/transfer/import.service.js';
import { createTransferService, type TransferService } from './modules/transfer/transfer.service.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';
import { createVoiceService, defaultVoiceOptions, type VoiceOptions, type VoiceService } from './modules/voice/voice.service.js';
import type { ChannelsService } from './modules/deliveries/channels.service.js';
import { createDeliveries, type DeliveryInjections } from './modules/deliveries/deliveries.js';
import type { DeliveryWorker } from './modules/deliveries/delivery-worker.js';
import type { WebhooksService } from './modules/deliveries/webhooks.service.js';
import { createReminderScheduler, type ReminderScheduler } from './modules/reminders/reminder-scheduler.js';
import { createRemindersService, type RemindersService } from './modules/reminders/reminders.service.js';
import { createEmailInService, type EmailInService } from './modules/email-in/email-in.service.js';
import { createCaldavService, type CaldavService } from './modules/caldav/caldav.service.js';
import { lazyEmailInReader } from './modules/email-in/lazy-reader.js';
import type { EmailInReader } from './modules/email-in/mail-reader.js';
import { DEFAULT_READER_SETTINGS, type ReaderSettings } from './modules/email-in/reader-settings.js';

export interface Services {
  db: Db;
  dialect: DbHandle['dialect'];
  clock: Clock;
  users: UsersService;
  keys: KeysService;
  projects: ProjectsService;
  tags: TagsService;
  items: ItemsService;
  /** Every new item: read, resolve the project, organize, schedule, store, learn (modules/capture). */
  capture: CaptureService;
  quickAdd: QuickAddService;
  /** Recurring items' completions and the user's zone for occurrences. */
  recurrence: RecurrenceService;
  /** Adds a subtask under an item (the web app's "add subtask"). */
  subtasks: SubtasksService;
  events: EventsService;
  /** Kept answers of POSTs sent with an Idempotency-Key. */
  idempotency: IdempotencyService;
  search: SearchService;
  bulk: BulkService;
  limits: LimitsService;
  organizer: OrganizerService;
  accounts: AccountsService;
  /** The account page: password, sessions, deleting the account. */
  accountSettings: AccountSettingsService;
  /** Export and import of a user's whole data. */
  transfer: TransferService;
  /** Server-wide settings the owner changes (sign-up open or closed). */
  instance: InstanceService;
  pairing: PairingService;
  /** Webhook registration and the delivery log; part of the deliveries module with channels and the worker. */
  webhooks: WebhooksService;
  /** The change feed live (GET /changes/stream): open streams, woken by commits of any process. */
  live: LiveService;
  /** Delivers outbox events to webhooks; only the server process starts it. */
  webhookWorker: DeliveryWorker;
  /** Notification channels (webpush, ntfy, email) and the VAPID key. */
  channels: ChannelsService;
  /** Snooze and the reminders log. */
  reminders: RemindersService;
  /** Fires due reminders; only the server process starts it (every process may). */
  reminderScheduler: ReminderScheduler;
  metrics: Metrics;
  voice: VoiceService;
  /** Users' secret email-in addresses. */
  emailIn: EmailInService;
  /** The CalDAV server's collections, objects and sync (src/modules/caldav). */
  caldav: CaldavService;
  /** Reads EMAIL_IN_IMAP_URL into items when set; only the server process starts it. */
  emailInReader: EmailInReader | undefined;
  logger: Logger;
  /** Releases what the container opened besides the database (worker, outbound connections, Redis). */
  close(): Promise<void>;
}

/** The settings the services read; the rest of Config is the HTTP layer's or the process's. */
export type ServiceSettings = Pick<
  Config,
  'limits' | 'redisUrl' | 'redisKeyPrefix' | 'organizer' | 'transcribe' | 'secretKey' | 'webhooks' | 'signup' | 'publicUrl' | 'mail' | 'emailIn'
>;

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

/** A database as openDatabase opens it: with the source of its commit wake-ups (src/modules/live). */
export type ServiceDb = DbHandle & { wakeups?: WakeupSource };

/** A database opened without openDatabase hears of no commits: its streams get only what they read when opened. */
const NO_WAKEUPS: WakeupSource = { crossProcess: true, subscribe: () => () => undefined, close: async () => undefined };

/** The deliveries module's injections (DNS, CAs, worker pace), under the name callers know. */
export type WebhookInjections = DeliveryInjections;

/** Wires every service once. No HTTP here: the server, the CLI and tests all build from this. */
export function createServices({ db: handle, ports, config, inject = {} }: ServiceInputs): Services {
  const { db, dialect } = handle;
  // Injection points, not settings: production passes none but the logger.
  const clock = inject.clock ?? systemClock;
  const newId = inject.newId ?? defaultNewId;
  const logger = inject.logger ?? pino({ level: 'silent' });
  const metrics = createMetrics({
    ...(inject.cluster ? { render: inject.cluster.renderMetrics } : {}),
    ...(inject.processMetrics ? { processMetrics: true } : {}),
  });
  inject.cluster?.shareMetrics(metrics.registry);
  const base = { db, clock, newId };

  const events = createEventsService({ ...base, dialect });
  const tags = createTagsService(base);
  const loader = createItemLoader(tags, dialect);
  // Items' write steps come first: deleting a project moves its items with them.
  const recurrence = createRecurrenceService({ db, newId });
  const writes = createItemWrites({
    clock,
    loader,
    events,
    advanceRecurring: (trx, userId, changes, at) => advanceRecurring(trx, userId, changes, at, recurrence),
  });
  const itemStore = ports.itemStore({ db, events, tags, now: writes.now });
  const projects = createProjectsService({ ...base, moveItems: writes.moveProjectItems });
  // The organizer's per-user routing model, taught by moves (edits, bulk) and filings (issue 37).
  const learner = createRoutingLearner({ db, dialect, clock, logger });
  const schedule = createSchedule({ recurrence });
  const edits = createItemEdits({ db, store: itemStore, loader, tags, projects, writes, learner, schedule });
  const search = createSearchService({ db, index: ports.searchIndex });
  const bulk = createBulkService({ db, loader, writes, projects, learner });
  const store: CounterStore = config.redisUrl
    ? createRedisStore({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, ...inject.redis })
    : (inject.cluster?.counterStore ?? createMemoryStore(clock));
  const limits = createLimitsService({ store, config: config.limits, clock, metrics, logger });
  const engine = countedEngine(createOrganizerEngine(config.organizer, { logger, ...(inject.fetch ? { fetch: inject.fetch } : {}) }), metrics.organizerRuns);
  const organizer = createOrganizerService({ db, clock, engine, limits, projects, loader, patchItem: edits.patch, learner });
  const imports = createImportedItems({ loader, tags, events });
  const quickAdd = createQuickAddService({ db, clock });
  const items = createItemsService({ db, loader, projects, edits, imports });
  const capture = createCaptureService({ ...base, store: itemStore, loader, projects, organizer, quickAdd, schedule });
  const subtasks = createSubtasksService({ items, capture });
  const users = createUsersService({ ...base, projects });
  const keys = createKeysService(base);
  const idempotency = createIdempotencyService({ db, clock });

  const voice = createVoiceService({
    config: config.transcribe,
    options: { ...defaultVoiceOptions(), ...inject.voice },
    logger,
  });

  const instance = createInstanceService({ db, clock, signup: config.signup });
  const accounts = createAccountsService({ db, clock, users, limits, instance });
  const accountSettings = createAccountSettingsService({ db, clock, users, limits, events });
  const pairing = createPairingService({ db, clock, keys, pace: limits.checkPace });
  const transfer = createTransferService({
    clock,
    exporter: createExportService({
      clock,
      users,
      projects,
      tags,
      items,
      organizerModel: learner.exportModel,
      completions: (userId) => recurrence.allCompletions(db, userId),
    }),
    importer: createImportService({ db, items, projects, tags, search, recurrence }),
  });

  // Webhooks, notification channels and their worker: one module, built whole (decision 0066).
  const deliveries = createDeliveries({
    ...base,
    dialect,
    logger,
    events,
    instance,
    config,
    ...(inject.webhooks ? { inject: inject.webhooks } : {}),
    onAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
  });
  const { webhooks, channels, worker: webhookWorker } = deliveries;
  const reminders = createRemindersService({ db, clock, items });
  const reminderScheduler = createReminderScheduler({
    ...base,
    logger,
    events,
    itemView: (userId, id) => items.get(userId, id).catch(() => undefined),
    onFired: () => webhookWorker.wake(),
    pollMs: inject.reminderPollMs ?? 1000,
  });
  const liveOptions: LiveOptions = { ...DEFAULT_LIVE, ...inject.live };
  const live = createLiveService({
    events,
    hub: createLiveHub(handle.wakeups ?? NO_WAKEUPS, { clock, logger, liveKeys: (ids) => findUnrevokedKeyIds(db, ids) }, inject.cluster?.wakeups),
    registry: createStreamRegistry({ db, clock, newId, logger, heartbeatMs: liveOptions.processHeartbeatMs }),
    logger,
    options: liveOptions,
  });
  const emailIn = createEmailInService({ db, clock, addressPattern: config.emailIn?.address });
  const emailInConfig = config.emailIn;
  const emailInReader = emailInConfig
    ? lazyEmailInReader(async () =>
        (await import('./modules/email-in/mail-reader.js')).createEmailInReader({
          db,
          clock,
          newId,
          logger,
          metrics: metrics.emailIn,
          imapUrl: emailInConfig.imapUrl,
          settings: { ...DEFAULT_READER_SETTINGS, ...inject.emailInReader },
          emailIn,
          users,
          capture,
          limits,
        }),
      )
    : undefined;
  const caldav = createCaldavService({ db, clock, items, capture, projects, events });
  metrics.watchQueues({ webhookDeliveries: () => webhookWorker.pendingCount(), transcriptions: () => voice.limiter.waiting });

  return {
    db,
    dialect,
    clock,
    users,
    keys,
    projects,
    tags,
    items,
    capture,
    quickAdd,
    recurrence,
    subtasks,
    events,
    idempotency,
    search,
    bulk,
    limits,
    organizer,
    metrics,
    voice,
    logger,
    accounts,
    accountSettings,
    instance,
    transfer,
    pairing,
    webhooks,
    webhookWorker,
    channels,
    reminders,
    reminderScheduler,
    live,
    emailIn,
    emailInReader,
    caldav,
    async close() {
      await emailInReader?.stop();
      await reminderScheduler.stop();
      live.endAll();
      await live.close();
      await deliveries.close();
      await limits.close();
    },
  };
}
