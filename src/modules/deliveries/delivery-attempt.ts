import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { recordAttemptResult, releaseLease } from './delivery-outcome.repository.js';
import type { AttemptContext, ClaimedDelivery } from './delivery-queue.repository.js';
import type { AttemptOutcome, DeliveryTransport } from './transports/delivery-transport.js';
import type { WebhookKind } from '../../db/schema.js';
import { KEY_RETRY_MS } from './retry-policy.js';
import type { SigningKeyVault } from './target-secrets.js';
import { deliveryHeaders } from './transports/signing.js';
import { recordWebhookFailure } from './webhooks.repository.js';

export interface AttemptDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  vault: SigningKeyVault;
  transport: DeliveryTransport;
  retryDelaysMs: readonly number[];
  /** Told the outcome of every finished attempt (the metrics' counter). */
  onAttempt?: (outcome: 'succeeded' | 'failed' | 'interrupted') => void;
  /** Sends to notification channels (rows of kind other than `webhook`); without it they wait. */
  channels?: ChannelDispatch;
}

/** What the webhook machinery asks of the channels module: one send, and what to do when a channel is gone for good. */
export interface ChannelDispatch {
  send(attempt: ChannelAttempt, stop: AbortSignal): Promise<AttemptOutcome>;
  /** After a recorded failure: a push service's 404/410 means the subscription is gone; the channel is deleted. */
  afterFailure(attempt: ChannelAttempt, outcome: Extract<AttemptOutcome, { kind: 'failed' }>): Promise<void>;
}

export interface ChannelAttempt {
  userId: string;
  channelId: string;
  kind: Exclude<WebhookKind, 'webhook'>;
  url: string;
  target: string | null;
  /** The channel's secrets, opened (JSON). */
  secrets: string;
  eventId: string;
  payload: string;
}

/**
 * One attempt of a claimed delivery: open the key, sign, send, and record the outcome while the
 * lease is still this worker's. `stop` cuts the request off (shutdown); the lease is then handed back.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  claim: ClaimedDelivery,
  ctx: AttemptContext | undefined,
  owner: string,
  stop: AbortSignal,
): Promise<void> {
  const { db, clock, log } = deps;
  const at = (offsetMs = 0) => toTimestamp(new Date(clock.now().getTime() + offsetMs));
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
  let channel: ChannelAttempt | undefined;
  let outcome: AttemptOutcome;
  if (ctx.kind === 'webhook') {
    const headers = deliveryHeaders({
      signingKey,
      eventId: claim.event_id,
      eventName: ctx.event,
      body: ctx.payload,
      timestamp: Math.floor(clock.now().getTime() / 1000),
    });
    outcome = await deps.transport.send({ url: ctx.url, headers, body: ctx.payload }, stop);
  } else {
    if (!deps.channels) {
      await releaseLease(db, claim.id, owner, at(KEY_RETRY_MS), false);
      return;
    }
    channel = {
      userId: claim.user_id,
      channelId: claim.webhook_id,
      kind: ctx.kind,
      url: ctx.url,
      target: ctx.target,
      secrets: signingKey,
      eventId: claim.event_id,
      payload: ctx.payload,
    };
    outcome = await deps.channels.send(channel, stop);
  }
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
      retryAt: deps.retryDelaysMs.map((delay) => at(delay)),
    });
    if (recorded?.status === 'failed') {
      await recordWebhookFailure(trx, recorded.user_id, recorded.webhook_id, { status: outcome.status, reason: reason ?? 'http_status', at: finishedAt });
    }
    return recorded;
  });
  if (channel && outcome.kind === 'failed' && deps.channels) await deps.channels.afterFailure(channel, outcome);
  const origin = ctx.kind === 'email' ? 'smtp' : new URL(ctx.url).origin; // never the path or query: they may carry the receiver's own secrets
  if (outcome.kind === 'succeeded') log.debug({ ...fields, status: outcome.status, origin }, 'webhook delivered');
  else if (!result) log.warn({ ...fields, origin }, 'webhook attempt finished after its lease was lost; result dropped');
  else log.info({ ...fields, status: outcome.status, reason, detail: outcome.detail, origin, next: result.status }, 'webhook attempt failed');
}
