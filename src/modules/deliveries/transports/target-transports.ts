import type { Clock } from '../../../lib/clock.js';
import { createDeliveryTransport, type Resolver } from './delivery-transport.js';
import type { DestinationPolicy } from './destination-rules.js';
import { createEmailTransport } from './email-transport.js';
import { createNtfyTransport } from './ntfy-transport.js';
import type { TargetTransports } from './target-transport.js';
import { createWebPushTransport, type VapidKeys } from './web-push-transport.js';
import { createWebhookTransport } from './webhook-transport.js';

export interface TargetTransportOptions extends DestinationPolicy {
  clock: Clock;
  resolver: Resolver;
  timeoutMs: number;
  ca?: string[];
  vapid: () => Promise<VapidKeys>;
  publicUrl: string;
  smtpUrl: string | undefined;
  smtpFrom: string;
}

/** Every kind's transport, the HTTP ones sharing one outbound transport (its pinned, rule-checked connections). */
export function createTargetTransports(o: TargetTransportOptions): TargetTransports {
  const http = createDeliveryTransport({
    resolver: o.resolver,
    allowPrivateTargets: o.allowPrivateTargets,
    ...(o.trustedTargets ? { trustedTargets: o.trustedTargets } : {}),
    timeoutMs: o.timeoutMs,
    ...(o.ca ? { ca: o.ca } : {}),
  });
  const email = createEmailTransport({ smtpUrl: o.smtpUrl, smtpFrom: o.smtpFrom });
  const vapidSubject = o.publicUrl.startsWith('https://') ? o.publicUrl : `mailto:inbox@${new URL(o.publicUrl).hostname}`;
  return {
    webhook: createWebhookTransport({ http, clock: o.clock }),
    channels: {
      webpush: createWebPushTransport({ http, vapid: o.vapid, vapidSubject }),
      ntfy: createNtfyTransport({ http }),
      email,
    },
    async close() {
      email.close();
      await http.close();
    },
  };
}
