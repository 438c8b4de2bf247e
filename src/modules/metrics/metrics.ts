import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the queue-depth gauges read at scrape time; wired by the container once the services exist. */
export interface QueueSources {
  /** Webhook deliveries waiting for an attempt (the database's, so every worker sees the same number). */
  webhookDeliveries(): Promise<number>;
  /** Transcriptions waiting for a free slot in this process. */
  transcriptions(): number;
}

/** Operational metrics, one registry per service container (tests build several side by side). */
export interface Metrics {
  registry: Registry;
  rateLimitStoreErrors: Counter;
  /** By route pattern (`/api/v1/items/:id`, never a raw path), method and status code. */
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  webhookAttempts: Counter<'outcome'>;
  organizerRuns: Counter<'engine'>;
  emailIn: EmailInMetrics;
  watchQueues(sources: QueueSources): void;
  /** The text GET /metrics answers: this process's metrics, or with WORKERS > 1 every worker's summed. */
  render(): Promise<string>;
}

/** The email-in reader's counters (src/modules/email-in). */
export interface EmailInMetrics {
  read: Counter;
  captured: Counter;
  duplicates: Counter;
  rejected: Counter<'reason'>;
  deferred: Counter;
}

export interface MetricsOptions {
  /** Replaces the local rendering; a cluster worker passes one that asks the primary. */
  render?: () => Promise<string>;
  /** prom-client's process metrics (CPU, memory, event loop, GC); the server turns them on, tests need not. */
  processMetrics?: boolean;
}

/** Request durations from a millisecond to a minute (a long voice upload). */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  let sources: QueueSources | undefined;
  new Gauge({
    name: 'capture_inbox_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for their next attempt',
    registers: [registry],
    // Every worker reads the same table: summing would count the queue once per worker.
    aggregator: 'max',
    async collect() {
      if (sources) this.set(await sources.webhookDeliveries());
    },
  });
  new Gauge({
    name: 'capture_inbox_transcriptions_waiting',
    help: 'Transcriptions waiting for a free slot',
    registers: [registry],
    collect() {
      if (sources) this.set(sources.transcriptions());
    },
  });
  return {
    registry,
    rateLimitStoreErrors: new Counter({
      name: 'capture_inbox_rate_limit_store_errors_total',
      help: 'Requests served without rate limiting because the counter store (Redis, or the primary process) failed',
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'capture_inbox_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status code',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'capture_inbox_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (succeeded, failed, interrupted)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    organizerRuns: new Counter({
      name: 'capture_inbox_organizer_runs_total',
      help: 'Organizer runs by the engine that decided (local also counts openai fallbacks)',
      labelNames: ['engine'] as const,
      registers: [registry],
    }),
    emailIn: {
      read: new Counter({
        name: 'capture_inbox_email_in_messages_read_total',
        help: 'Messages the email-in reader read from the mailbox (again when one is retried)',
        registers: [registry],
      }),
      captured: new Counter({
        name: 'capture_inbox_email_in_captured_total',
        help: 'Items created from mail',
        registers: [registry],
      }),
      duplicates: new Counter({
        name: 'capture_inbox_email_in_duplicates_total',
        help: 'Mail whose Message-ID was already captured (moved to Processed, no new item)',
        registers: [registry],
      }),
      rejected: new Counter({
        name: 'capture_inbox_email_in_rejected_total',
        help: 'Mail moved to Rejected, by reason (unknown_address, malformed, too_large, invalid)',
        labelNames: ['reason'] as const,
        registers: [registry],
      }),
      deferred: new Counter({
        name: 'capture_inbox_email_in_deferred_total',
        help: 'Mail left unread for a later window because a user was over their limits',
        registers: [registry],
      }),
    },
    watchQueues(given) {
      sources = given;
    },
    render: options.render ?? (() => registry.metrics()),
  };
}
