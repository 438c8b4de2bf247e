import type { DeliveryTransport } from './delivery-transport.js';
import type { ChannelTransport } from './target-transport.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

interface PushSecrets {
  p256dh: string;
  auth: string;
}

/**
 * Web push: `web-push` only builds the request (VAPID JWT, aes128gcm body); the delivery transport
 * sends it, so the push service's URL meets the destination rules at connect like any other.
 */
export function createWebPushTransport(deps: {
  http: DeliveryTransport;
  vapid: () => Promise<VapidKeys>;
  /** VAPID `sub`: a mailto: or https: URL where the push service can reach the operator. */
  vapidSubject: string;
}): ChannelTransport {
  return {
    async send(target, { deliveryId, content }, stop) {
      const keys = JSON.parse(target.secret) as PushSecrets;
      const vapid = await deps.vapid();
      const payload = JSON.stringify({ id: deliveryId, title: content.title, body: content.line, url: content.link });
      const { pushRequestDetails } = await import('./push-library.js');
      const details = pushRequestDetails({ endpoint: target.url, keys }, payload, {
        vapidDetails: { subject: deps.vapidSubject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: 24 * 3600,
        urgency: 'high',
        // A retried delivery replaces the earlier message still queued at the push service.
        topic: deliveryId.replace(/-/g, ''),
      });
      const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
      return deps.http.send({ url: details.endpoint, headers, body: details.body ?? Buffer.alloc(0) }, stop);
    },
  };
}
