import { EVENT_RETENTION_MS } from '../events/events.service.js';

export interface WorkerSettings {
  /** Delays before attempts 2, 3, …: the set has one attempt more than there are delays. */
  retryDelaysMs: readonly number[];
  /** How long a claim is exclusive; past it another worker takes the delivery over (crash recovery). */
  leaseMs: number;
  /** Attempts in flight in this process at once. */
  concurrency: number;
  /** Attempts in flight for one webhook at once, across all workers. */
  perWebhook: number;
  /** Pause between passes when idle. */
  pollMs: number;
  /** Outbox events fanned out per transaction. */
  batchSize: number;
  /** Finished deliveries older than this are deleted (the delivery log). */
  retentionMs: number;
  /** Outbox events older than this are deleted once no webhook needs them (the change feed keeps 30 days). */
  eventRetentionMs: number;
  pruneEveryMs: number;
  /** On stop, how long attempts in flight may still finish before they are cut off and handed back. */
  shutdownGraceMs: number;
}

export const DEFAULT_WORKER_SETTINGS: Omit<WorkerSettings, 'retryDelaysMs' | 'leaseMs'> = {
  concurrency: 32,
  perWebhook: 4,
  pollMs: 250,
  batchSize: 200,
  retentionMs: 7 * 24 * 3600_000,
  eventRetentionMs: EVENT_RETENTION_MS,
  pruneEveryMs: 10 * 60_000,
  shutdownGraceMs: 3_000,
};
