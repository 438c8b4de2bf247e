import type { Logger } from 'pino';
import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import {
  claimDueDeliveries,
  failAbandonedDeliveries,
  countPendingDeliveries,
  findAttemptContexts,
  pruneDispatchedEvents,
  recordAttemptResult,
  releaseLease,
  type AttemptContext,
  type ClaimedDelivery,
} from './deliveries.repository.js';
import type { DeliveryTransport } from './delivery-transport.js';
import { EVENT_RETENTION_MS } from '../events/events.service.js';
import { fanOutEvents } from './fan-out.js';
import { pruneFinishedDeliveries } from './retention.repository.js';
import type { SigningKeyVault } from './signing-keys.js';
import { deliveryHeaders } from './signing.js';
import { recordWebhookFailure } from './webhooks.repository.js';

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

/** A lease outlives the longest attempt (the timeout bounds DNS, connect and answer) with room to record it. */
export const leaseFor = (timeoutMs: number): number => timeoutMs + 5_000;

/** A key that cannot be opened (SECRET_KEY changed) is retried this much later rather than dropped. */
const KEY_RETRY_MS = 60_000;
const ERROR_BACKOFF_MS = 5_000;
const MAX_FAN_OUT_BATCHES = 10;
const PRUNE_BATCH = 500;
const MAX_PRUNE_BATCHES = 20;

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
  readonly started: boolean;
}

export interface DeliveryWorkerDeps {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  vault: SigningKeyVault;
  transport: DeliveryTransport;
  settings: WorkerSettings;
  /** Told the outcome of every finished attempt (the metrics' counter). */
  onAttempt?: (outcome: 'succeeded' | 'failed' | 'interrupted') => void;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { db, dialect, clock, settings } = deps;
  const log = deps.logger.child({ component: 'webhook-worker' });
  const inFlight = new Map<string, { promise: Promise<void>; controller: AbortController }>();
  const at = (offsetMs = 0) => toTimestamp(new Date(clock.now().getTime() + offsetMs));

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;
  let lastPrune = Number.NEGATIVE_INFINITY;

  async function attempt(claim: ClaimedDelivery, ctx: AttemptContext | undefined, owner: string, stop: AbortSignal): Promise<void> {
    // Gone between claim and load: its webhook was deleted, and the delivery with it.
    if (!ctx) return;
    // The claim counted this attempt already.
    const fields = { delivery_id: claim.id, webhook_id: claim.webhook_id, event_id: claim.event_id, attempt: claim.round_attempts };
    let signingKey: string;
    try {
      signingKey = deps.vault.open(claim.user_id, claim.webhook_id, ctx.signing_key);
    } catch {
      log.error(fields, 'cannot open the webhook signing key; is SECRET_KEY the one it was sealed with? retrying later');
      await releaseLease(db, claim.id, owner, at(KEY_RETRY_MS), false);
      return;
    }
    const headers = deliveryHeaders({
      signingKey,
      eventId: claim.event_id,
      eventName: ctx.event,
      body: ctx.payload,
      timestamp: Math.floor(clock.now().getTime() / 1000),
    });
    const outcome = await deps.transport.send({ url: ctx.url, headers, body: ctx.payload }, stop);
    deps.onAttempt?.(outcome.kind);
    if (outcome.kind === 'interrupted') {
      // The POST may have reached the receiver: the attempt stays counted.
      await releaseLease(db, claim.id, owner, at(), true);
      return;
    }
    const succeeded = outcome.kind === 'succeeded';
    const reason = outcome.kind === 'failed' ? outcome.reason : null;
    const finishedAt = at();
    const result = await db.transaction().execute(async (trx) => {
      const recorded = await recordAttemptResult(trx, {
        id: claim.id,
        owner,
        succeeded,
        status: outcome.status,
        reason,
        retryAt: settings.retryDelaysMs.map((delay) => at(delay)),
      });
      if (recorded?.status === 'failed') {
        await recordWebhookFailure(trx, recorded.user_id, recorded.webhook_id, { status: outcome.status, reason: reason ?? 'http_status', at: finishedAt });
      }
      return recorded;
    });
    const origin = new URL(ctx.url).origin; // never the path or query: they may carry the receiver's own secrets
    if (outcome.kind === 'succeeded') log.debug({ ...fields, status: outcome.status, origin }, 'webhook delivered');
    else if (!result) log.warn({ ...fields, origin }, 'webhook attempt finished after its lease was lost; result dropped');
    else log.info({ ...fields, status: outcome.status, reason, detail: outcome.detail, origin, next: result.status }, 'webhook attempt failed');
  }

  function track(claim: ClaimedDelivery, ctx: AttemptContext | undefined, owner: string): Promise<void> {
    const controller = new AbortController();
    const promise = attempt(claim, ctx, owner, controller.signal)
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

  async function maybePrune(): Promise<void> {
    const now = clock.now().getTime();
    if (now - lastPrune < settings.pruneEveryMs) return;
    lastPrune = now;
    await prune();
  }

  /** Deletes old finished deliveries, then old events no webhook needs; answers the rows deleted. */
  async function prune(): Promise<number> {
    const batches = async (cutoff: string, run: (cutoff: string, limit: number) => Promise<number>): Promise<number> => {
      let total = 0;
      for (let i = 0; i < MAX_PRUNE_BATCHES; i += 1) {
        const deleted = await run(cutoff, PRUNE_BATCH);
        total += deleted;
        if (deleted < PRUNE_BATCH) break;
      }
      return total;
    };
    const deliveries = await batches(at(-settings.retentionMs), (cutoff, limit) => pruneFinishedDeliveries(db, cutoff, limit));
    const events = await batches(at(-settings.eventRetentionMs), (cutoff, limit) => pruneDispatchedEvents(db, cutoff, limit));
    if (deliveries + events > 0) log.info({ deliveries, events }, 'pruned old deliveries and outbox events');
    return deliveries + events;
  }

  /** Fans out new events, then claims as many due deliveries as there is room for and starts them. */
  async function pump(): Promise<{ fannedOut: number; started: Promise<void>[] }> {
    let fannedOut = 0;
    for (let i = 0; i < MAX_FAN_OUT_BATCHES; i += 1) {
      const n = await fanOutEvents(deps, at(), settings.batchSize);
      fannedOut += n;
      if (n < settings.batchSize) break;
    }
    await maybePrune();
    const room = settings.concurrency - inFlight.size;
    if (room <= 0) return { fannedOut, started: [] };
    const maxAttempts = settings.retryDelaysMs.length + 1;
    const now = at();
    for (const lost of await failAbandonedDeliveries(db, { now, maxAttempts })) {
      await recordWebhookFailure(db, lost.user_id, lost.webhook_id, { status: 0, reason: 'network_error', at: now });
    }
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
    const contexts = new Map((await findAttemptContexts(db, claims.map((c) => c.id))).map((c) => [c.id, c]));
    return { fannedOut, started: claims.map((claim) => track(claim, contexts.get(claim.id), owner)) };
  }

  function schedule(ms: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void loop(), ms);
    timer.unref();
  }

  async function loop(): Promise<void> {
    timer = undefined;
    if (pass) {
      again = true;
      return;
    }
    let delay = settings.pollMs;
    pass = (async () => {
      do {
        again = false;
        await pump();
      } while (again && running);
    })().catch((err: unknown) => {
      delay = ERROR_BACKOFF_MS;
      log.error({ err }, 'webhook worker pass failed; retrying');
    });
    await pass;
    pass = undefined;
    schedule(delay);
  }

  function wake(): void {
    if (!running) return;
    if (pass) again = true;
    else schedule(0);
  }

  async function tick(): Promise<TickReport> {
    const { fannedOut, started } = await pump();
    await Promise.all(started);
    return { fannedOut, attempted: started.length };
  }

  return {
    get started() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await pass;
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
    prune,
    pendingCount: () => countPendingDeliveries(db),
  };
}
