import type { Clock } from '../../../lib/clock.js';
import type { DeliveryTransport } from './delivery-transport.js';
import { deliveryHeaders } from './signing.js';
import type { WebhookTransport } from './target-transport.js';

/** A webhook: the event's JSON, signed afresh on every attempt with the webhook's signing key. */
export function createWebhookTransport(deps: { http: DeliveryTransport; clock: Clock }): WebhookTransport {
  return {
    send(target, event, stop) {
      const headers = deliveryHeaders({
        signingKey: target.secret,
        eventId: event.eventId,
        eventName: event.event,
        body: event.payload,
        timestamp: Math.floor(deps.clock.now().getTime() / 1000),
      });
      return deps.http.send({ url: target.url, headers, body: event.payload }, stop);
    },
  };
}
