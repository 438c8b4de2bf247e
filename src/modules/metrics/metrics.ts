import { Counter, Registry } from 'prom-client';

/** Operational counters, one registry per service container (tests build several side by side). */
export interface Metrics {
  registry: Registry;
  rateLimitStoreErrors: Counter;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    rateLimitStoreErrors: new Counter({
      name: 'capture_inbox_rate_limit_store_errors_total',
      help: 'Requests served without rate limiting because the counter store (Redis) failed',
      registers: [registry],
    }),
  };
}
