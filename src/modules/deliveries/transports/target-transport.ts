import type { WebhookKind } from '../../../db/schema.js';
import type { NotificationContent } from '../notification-content.js';
import type { AttemptOutcome } from './delivery-transport.js';

/*
 * One transport per kind of delivery target. A webhook is sent the event itself, signed; a
 * notification channel (web push, ntfy, email) is sent a notification made from it. Every one
 * answers the same AttemptOutcome, which the queue records.
 */

export type ChannelKind = Exclude<WebhookKind, 'webhook'>;

/** A target as one attempt sends to it: where, and its secret opened (a signing key, or a channel's JSON). */
export interface DeliveryTarget<K extends WebhookKind = WebhookKind> {
  id: string;
  userId: string;
  kind: K;
  url: string;
  /** A channel's public part: the email address for email. */
  target: string | null;
  secret: string;
}

/** What a webhook is sent: the outbox event's id, name and JSON body. */
export interface OutgoingEvent {
  eventId: string;
  event: string;
  payload: string;
}

/** What a channel is sent. */
export interface Notification {
  /** The same on every attempt of one delivery (the event id): receivers can drop repeats. */
  deliveryId: string;
  content: NotificationContent;
}

export interface WebhookTransport {
  send(target: DeliveryTarget<'webhook'>, event: OutgoingEvent, stop?: AbortSignal): Promise<AttemptOutcome>;
}

export interface ChannelTransport {
  send(target: DeliveryTarget<ChannelKind>, notification: Notification, stop?: AbortSignal): Promise<AttemptOutcome>;
}

export interface TargetTransports {
  webhook: WebhookTransport;
  channels: Record<ChannelKind, ChannelTransport>;
  /** Closes what they hold open (outbound connections, the SMTP pool). */
  close(): Promise<void>;
}
