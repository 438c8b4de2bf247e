import type { Db } from '../../db/schema.js';
import { findNotificationContext } from './channels.repository.js';
import { notificationContent, type ReminderItem } from './notification-content.js';
import type { AttemptOutcome } from './transports/delivery-transport.js';
import type { ChannelKind, DeliveryTarget, TargetTransports } from './transports/target-transport.js';

/** Sends a reminder (or a test) to one channel: the notification made in the user's zone, then the kind's transport. */
export type Notify = (target: DeliveryTarget<ChannelKind>, deliveryId: string, item: ReminderItem, stop?: AbortSignal) => Promise<AttemptOutcome>;

export function createNotifier(deps: { db: Db; publicUrl: string; transports: TargetTransports }): Notify {
  return async (target, deliveryId, item, stop) => {
    const ctx = await findNotificationContext(deps.db, target.userId, item.project_id);
    const content = notificationContent(item, { ...ctx, publicUrl: deps.publicUrl });
    try {
      return await deps.transports.channels[target.kind].send(target, { deliveryId, content }, stop);
    } catch (error) {
      // A subscription web-push cannot encrypt for, or a mailer that cannot start: a failed attempt, not a crash.
      return { kind: 'failed', status: 0, reason: 'network_error', detail: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** A push service's 404/410: the subscription is gone for good, and so is the channel. */
export const channelIsGone = (kind: ChannelKind, status: number): boolean => kind === 'webpush' && (status === 404 || status === 410);
