import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { recordAttemptResult, releaseLease } from './delivery-outcome.repository.js';
import type { AttemptContext, ClaimedDelivery } from './delivery-queue.repository.js';
import type { AttemptOutcome } from './transports/delivery-transport.js';
import type { DeliveryBody } from '../events/events.service.js';
import { deleteChannel } from './channels.repository.js';
import type { ReminderItem } from './notification-content.js';
import { channelIsGone, type Notify } from './notifier.js';
import type { TargetTransports } from './transports/target-transport.js';
import { KEY_RETRY_MS } from './retry-policy.js';
import type { TargetSecretVault } from './target-secrets.js';
import { recordWebhookFailure } from './webhooks.repository.js';

export interface AttemptDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  vault: TargetSecretVault;
  /** One per kind of target; a channel's goes through `notify`, which makes the notification first. */
  transports: TargetTransports;
  notify: Notify;
  retryDelaysMs: readonly number[];
  /** Told the outcome of every finished attempt (the metrics' counter). */
  onAttempt?: (outcome: 'succeeded' | 'failed' | 'interrupted') => void;
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
  let secret: string;
  try {
    secret = deps.vault.open(claim.user_id, claim.webhook_id, ctx.sealed_secret);
  } catch {
    log.error(fields, "cannot open the target's sealed secret; is SECRET_KEY the one it was sealed with? retrying later");
    await releaseLease(db, claim.id, owner, at(KEY_RETRY_MS), false);
    return;
  }
  const target = { id: claim.webhook_id, userId: claim.user_id, url: ctx.url, target: ctx.target, secret };
  const outcome: AttemptOutcome =
    ctx.kind === 'webhook'
      ? await deps.transports.webhook.send({ ...target, kind: 'webhook' }, { eventId: claim.event_id, event: ctx.event, payload: ctx.payload }, stop)
      : await deps.notify({ ...target, kind: ctx.kind }, claim.event_id, reminderItemOf(ctx.payload), stop);
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
  if (ctx.kind !== 'webhook' && outcome.kind === 'failed' && channelIsGone(ctx.kind, outcome.status)) await deleteChannel(db, claim.user_id, claim.webhook_id);
  const origin = ctx.kind === 'email' ? 'smtp' : new URL(ctx.url).origin; // never the path or query: they may carry the receiver's own secrets
  if (outcome.kind === 'succeeded') log.debug({ ...fields, status: outcome.status, origin }, 'webhook delivered');
  else if (!result) log.warn({ ...fields, origin }, 'webhook attempt finished after its lease was lost; result dropped');
  else log.info({ ...fields, status: outcome.status, reason, detail: outcome.detail, origin, next: result.status }, 'webhook attempt failed');
}

/** A channel is sent the reminder's item: never its notes. */
function reminderItemOf(payload: string): ReminderItem {
  const { item } = (JSON.parse(payload) as DeliveryBody).data;
  return { id: item.id, title: item.title, due_at: item.due_at, project_id: item.project_id };
}
