import type { Logger } from 'pino';
import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { createPollLoop } from '../../lib/poll-loop.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EventsService } from '../events/events.service.js';
import { attemptDelivery } from './delivery-attempt.js';
import { createDeliveryCleanup, failAbandonedSets } from './delivery-cleanup.js';
import { claimDueDeliveries, countPendingDeliveries, findAttemptContexts, type AttemptContext, type ClaimedDelivery } from './delivery-queue.repository.js';
import type { Notify } from './notifier.js';
import { fanOutEvents } from './fan-out.js';
import { attemptsPerSet } from './retry-policy.js';
import type { TargetSecretVault } from './target-secrets.js';
import type { TargetTransports } from './transports/target-transport.js';
import type { WorkerSettings } from './worker-settings.js';

// Where the durability test (and any caller that sizes leases) has always found it.
export { leaseFor } from './retry-policy.js';

/*
 * The worker loop: each pass fans out new events, prunes when due, ends abandoned sets and claims
 * what there is room for; attempts run without waiting for each other, and each one that ends
 * wakes the loop. One attempt is delivery-attempt.ts; the queue's SQL is delivery-queue.repository.ts.
 */

/** After a failed pass: 5 s, doubling to a minute while the database stays away. */
const ERROR_BACKOFF_MS = [5_000, 60_000] as const;
const MAX_FAN_OUT_BATCHES = 10;

export interface TickReport {
  fannedOut: number;
  attempted: number;
}

export interface DeliveryWorker {
  /** Polls in the background until stop(). */
  start(): void;
  /** Stops polling; attempts in flight get the grace period, then are cut off and their leases released. */
  stop(): Promise<void>;
  /** One pass, awaited to the end of its attempts (for tests and tools; not while started). */
  tick(): Promise<TickReport>;
  /** Passes until one finds nothing due now. */
  drain(maxPasses?: number): Promise<TickReport>;
  prune(): Promise<number>;
  /** Deliveries waiting for an attempt (every worker's; read from the database). */
  pendingCount(): Promise<number>;
  /** Asks for a pass now (a reminder was just written): no waiting for the next poll. */
  wake(): void;
  readonly started: boolean;
}

export interface DeliveryWorkerDeps {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  events: EventsService;
  vault: TargetSecretVault;
  transports: TargetTransports;
  notify: Notify;
  settings: WorkerSettings;
  /** Told the outcome of every finished attempt (the metrics' counter). */
  onAttempt?: (outcome: 'succeeded' | 'failed' | 'interrupted') => void;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { db, dialect, clock, settings } = deps;
  const log = deps.logger.child({ component: 'webhook-worker' });
  const inFlight = new Map<string, { promise: Promise<void>; controller: AbortController }>();
  const at = (offsetMs = 0) => toTimestamp(new Date(clock.now().getTime() + offsetMs));
  const attemptDeps = {
    db,
    clock,
    log,
    vault: deps.vault,
    transports: deps.transports,
    notify: deps.notify,
    retryDelaysMs: settings.retryDelaysMs,
    ...(deps.onAttempt ? { onAttempt: deps.onAttempt } : {}),
  };
  const cleanup = createDeliveryCleanup({
    db,
    clock,
    log,
    events: deps.events,
    retentionMs: settings.retentionMs,
    eventRetentionMs: settings.eventRetentionMs,
    pruneEveryMs: settings.pruneEveryMs,
  });

  const loop = createPollLoop({
    pass: async () => {
      await pump();
    },
    intervalMs: settings.pollMs,
    backoffMs: ERROR_BACKOFF_MS,
    onError: (err) => log.error({ err }, 'webhook worker pass failed; retrying'),
  });
  const wake = (): void => loop.wake();

  function track(claim: ClaimedDelivery, ctx: AttemptContext | undefined, owner: string): Promise<void> {
    const controller = new AbortController();
    const promise = attemptDelivery(attemptDeps, claim, ctx, owner, controller.signal)
      .catch((err: unknown) => {
        // The lease expires and the delivery is retried: at least once, even when recording failed.
        log.error({ err, delivery_id: claim.id }, 'webhook attempt could not be completed');
      })
      .finally(() => {
        inFlight.delete(claim.id);
        wake();
      });
    inFlight.set(claim.id, { promise, controller });
    return promise;
  }

  /** Fans out new events, then claims as many due deliveries as there is room for and starts them. */
  async function pump(): Promise<{ fannedOut: number; started: Promise<void>[] }> {
    let fannedOut = 0;
    for (let i = 0; i < MAX_FAN_OUT_BATCHES; i += 1) {
      const n = await fanOutEvents(deps, at(), settings.batchSize);
      fannedOut += n;
      if (n < settings.batchSize) break;
    }
    await cleanup.pruneWhenDue();
    const room = settings.concurrency - inFlight.size;
    if (room <= 0) return { fannedOut, started: [] };
    const maxAttempts = attemptsPerSet(settings.retryDelaysMs);
    await failAbandonedSets(db, at(), maxAttempts);
    const owner = deps.newId();
    const claims = await claimDueDeliveries(db, dialect, {
      maxAttempts,
      now: at(),
      leaseUntil: at(settings.leaseMs),
      owner,
      limit: room,
      perWebhook: settings.perWebhook,
    });
    if (claims.length === 0) return { fannedOut, started: [] };
    const contexts = new Map(
      (
        await findAttemptContexts(
          db,
          claims.map((c) => c.id),
        )
      ).map((c) => [c.id, c]),
    );
    return { fannedOut, started: claims.map((claim) => track(claim, contexts.get(claim.id), owner)) };
  }

  async function tick(): Promise<TickReport> {
    const { fannedOut, started } = await pump();
    await Promise.all(started);
    return { fannedOut, attempted: started.length };
  }

  return {
    get started() {
      return loop.running;
    },
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      if (inFlight.size === 0) return;
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, settings.shutdownGraceMs);
      });
      await Promise.race([Promise.allSettled([...inFlight.values()].map((f) => f.promise)), grace]);
      clearTimeout(graceTimer);
      const left = [...inFlight.values()];
      for (const f of left) f.controller.abort();
      await Promise.allSettled(left.map((f) => f.promise));
    },
    tick,
    async drain(maxPasses = 100) {
      const total: TickReport = { fannedOut: 0, attempted: 0 };
      for (let i = 0; i < maxPasses; i += 1) {
        const report = await tick();
        total.fannedOut += report.fannedOut;
        total.attempted += report.attempted;
        if (report.fannedOut === 0 && report.attempted === 0) break;
      }
      return total;
    },
    prune: cleanup.prune,
    pendingCount: () => countPendingDeliveries(db),
    wake,
  };
}
