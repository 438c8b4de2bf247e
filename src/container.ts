import { pino, type Logger } from 'pino';
import { DEFAULT_LIMITS, type LimitsConfig, type TranscribeConfig } from './config.js';
import type { DbHandle } from './db/create-db.js';
import type { Db } from './db/schema.js';
import { systemClock, type Clock } from './lib/clock.js';
import { newId as defaultNewId, type IdGenerator } from './lib/ids.js';
import { createBulkService, type BulkService } from './modules/bulk/bulk.service.js';
import { createEventsService, type EventsService } from './modules/events/events.service.js';
import { createItemChangesService, type ItemChangesService } from './modules/items/item-changes.service.js';
import { createItemLoader } from './modules/items/item-loader.js';
import { createItemsService, type ItemsService } from './modules/items/items.service.js';
import { createKeysService, type KeysService } from './modules/keys/keys.service.js';
import type { CounterStore } from './modules/limits/counter-store.js';
import { createLimitsService, type LimitsService } from './modules/limits/limits.service.js';
import { createMemoryStore } from './modules/limits/memory-store.js';
import { createRedisStore } from './modules/limits/redis-store.js';
import { createMetrics, type Metrics } from './modules/metrics/metrics.js';
import { createProjectsService, type ProjectsService } from './modules/projects/projects.service.js';
import { createSearchService, type SearchService } from './modules/search/search.service.js';
import { createTagsService, type TagsService } from './modules/tags/tags.service.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';
import { createVoiceService, defaultVoiceOptions, type VoiceOptions, type VoiceService } from './modules/voice/voice.service.js';

export interface Services {
  db: Db;
  dialect: DbHandle['dialect'];
  clock: Clock;
  users: UsersService;
  keys: KeysService;
  projects: ProjectsService;
  tags: TagsService;
  items: ItemsService;
  itemChanges: ItemChangesService;
  events: EventsService;
  search: SearchService;
  bulk: BulkService;
  limits: LimitsService;
  metrics: Metrics;
  voice: VoiceService;
  logger: Logger;
  /** Releases what the container opened besides the database (the Redis connection). */
  close(): Promise<void>;
}

export interface ContainerOptions {
  clock?: Clock;
  newId?: IdGenerator;
  logger?: Logger;
  limits?: LimitsConfig;
  /** Counters in Redis (shared by instances) instead of in process memory. */
  redis?: { url: string; keyPrefix: string };
  /** The transcription settings (engine auto: pocketsphinx when installed, when not given). */
  transcribe?: Partial<TranscribeConfig>;
  /** Bounds and injection points of transcription (outbound HTTP, temp directory, timeouts). */
  voice?: Partial<VoiceOptions>;
}

/** Wires every service once. No HTTP here: the server, the CLI and tests all build from this. */
export function createServices(handle: DbHandle, options: ContainerOptions = {}): Services {
  const { db, dialect } = handle;
  const clock = options.clock ?? systemClock;
  const newId = options.newId ?? defaultNewId;
  const logger = options.logger ?? pino({ level: 'silent' });
  const metrics = createMetrics();
  const base = { db, clock, newId };

  const events = createEventsService(base);
  const tags = createTagsService(base);
  const loader = createItemLoader(tags);
  // Deleting a project moves its items, which is item logic; the late binding breaks the cycle.
  let itemChanges: ItemChangesService | undefined;
  const projects = createProjectsService({
    ...base,
    moveItems: (trx, userId, from, to) => {
      if (!itemChanges) throw new Error('item changes service is not wired');
      return itemChanges.moveProjectItems(trx, userId, from, to);
    },
  });
  itemChanges = createItemChangesService({ db, clock, loader, tags, projects, events });
  const items = createItemsService({ ...base, loader, projects, events });
  const search = createSearchService({ db, dialect, loader });
  const bulk = createBulkService({ db, loader, itemChanges, projects });
  const users = createUsersService({ ...base, projects });
  const keys = createKeysService(base);
  const store: CounterStore = options.redis ? createRedisStore(options.redis) : createMemoryStore(clock);
  const limits = createLimitsService({ store, config: options.limits ?? DEFAULT_LIMITS, clock, metrics, logger });
  const voice = createVoiceService({
    config: { engine: 'auto', openai: undefined, ...options.transcribe },
    options: { ...defaultVoiceOptions(), ...options.voice },
    logger,
  });

  return {
    db, dialect, clock, users, keys, projects, tags, items, itemChanges, events, search, bulk, limits, metrics, voice, logger,
    close: () => limits.close(),
  };
}
