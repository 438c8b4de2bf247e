import { Counter, Registry } from 'prom-client';

/** Operational counters, one registry per service container (tests build several side by side). */
export interface Metrics {
  registry: Registry;
  rateLimitStoreErrors: Counter;
  /** The text GET /metrics answers: this process's counters, or with WORKERS > 1 every worker's summed. */
  render(): Promise<string>;
}

/** `render` replaces the local rendering; a cluster worker passes one that asks the primary. */
export function createMetrics(render?: () => Promise<string>): Metrics {
  const registry = new Registry();
  return {
    registry,
    rateLimitStoreErrors: new Counter({
      name: 'capture_inbox_rate_limit_store_errors_total',
      help: 'Requests served without rate limiting because the counter store (Redis, or the primary process) failed',
      registers: [registry],
    }),
    render: render ?? (() => registry.metrics()),
  };
}
