import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EventsService } from '../events/events.service.js';
import { failAbandonedDeliveries } from './delivery-outcome.repository.js';
import { pruneFinishedDeliveries } from './delivery-queue.repository.js';
import { recordWebhookFailure } from './webhooks.repository.js';

const PRUNE_BATCH = 500;
const MAX_PRUNE_BATCHES = 20;

export interface CleanupDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  events: EventsService;
  /** Finished deliveries older than this are deleted (the delivery log). */
  retentionMs: number;
  /** Outbox events older than this are deleted once no webhook needs them. */
  eventRetentionMs: number;
  pruneEveryMs: number;
}

export interface DeliveryCleanup {
  /** Deletes old finished deliveries, then old events no webhook needs; answers the rows deleted. */
  prune(): Promise<number>;
  /** prune(), at most once every pruneEveryMs. */
  pruneWhenDue(): Promise<void>;
}

/** Bounded batches, so one prune never holds the database for long. */
async function inBatches(cutoff: string, run: (cutoff: string, limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_PRUNE_BATCHES; i += 1) {
    const deleted = await run(cutoff, PRUNE_BATCH);
    total += deleted;
    if (deleted < PRUNE_BATCH) break;
  }
  return total;
}

export function createDeliveryCleanup(deps: CleanupDeps): DeliveryCleanup {
  const { db, clock, log } = deps;
  const at = (offsetMs: number) => toTimestamp(new Date(clock.now().getTime() + offsetMs));
  let lastPrune = Number.NEGATIVE_INFINITY;

  async function prune(): Promise<number> {
    const deliveries = await inBatches(at(-deps.retentionMs), (cutoff, limit) => pruneFinishedDeliveries(db, cutoff, limit));
    const events = await inBatches(at(-deps.eventRetentionMs), (cutoff, limit) => deps.events.pruneDispatched(cutoff, limit));
    if (deliveries + events > 0) log.info({ deliveries, events }, 'pruned old deliveries and outbox events');
    return deliveries + events;
  }

  return {
    prune,
    async pruneWhenDue() {
      const now = clock.now().getTime();
      if (now - lastPrune < deps.pruneEveryMs) return;
      lastPrune = now;
      await prune();
    },
  };
}

/**
 * Sets whose last attempt started in a process that died: failed once the lease has run out, and
 * their webhooks' last-failure fields say so (no answer, network_error).
 */
export async function failAbandonedSets(db: Db, now: string, maxAttempts: number): Promise<void> {
  for (const lost of await failAbandonedDeliveries(db, { now, maxAttempts })) {
    await recordWebhookFailure(db, lost.user_id, lost.webhook_id, { status: 0, reason: 'network_error', at: now });
  }
}
