import { pino } from 'pino';
import { systemClock } from '../lib/clock.js';
import { newId as defaultNewId } from '../lib/ids.js';
import type { CounterStore } from '../modules/limits/counter-store.js';
import { createLimitsService } from '../modules/limits/limits.service.js';
import { createMemoryStore } from '../modules/limits/memory-store.js';
import { createRedisStore } from '../modules/limits/redis-store.js';
import { createMetrics } from '../modules/metrics/metrics.js';
import type { ServiceInputs } from './inputs.js';

/** What every service may be built from: the database, the injection points, the log and the metrics. */
export function buildBasics({ db: handle, inject = {} }: ServiceInputs) {
  // Injection points, not settings: production passes none but the logger.
  const clock = inject.clock ?? systemClock;
  const newId = inject.newId ?? defaultNewId;
  const logger = inject.logger ?? pino({ level: 'silent' });
  const metrics = createMetrics({
    ...(inject.cluster ? { render: inject.cluster.renderMetrics } : {}),
    ...(inject.processMetrics ? { processMetrics: true } : {}),
  });
  inject.cluster?.shareMetrics(metrics.registry);
  return { handle, db: handle.db, dialect: handle.dialect, clock, newId, logger, metrics };
}

export type Basics = ReturnType<typeof buildBasics>;

/** Rate limits and quotas, counted in Redis when configured, else in the cluster's primary or this process. */
export function buildLimits({ clock, metrics, logger }: Basics, { config, inject = {} }: ServiceInputs) {
  const store: CounterStore = config.redisUrl
    ? createRedisStore({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, ...inject.redis })
    : (inject.cluster?.counterStore ?? createMemoryStore(clock));
  return createLimitsService({ store, config: config.limits, clock, metrics, logger });
}
