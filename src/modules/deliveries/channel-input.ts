import { badRequest } from '../../errors.js';
import { checkWebhookUrl, DestinationRuleError, type DestinationPolicy } from './transports/destination-rules.js';
import type { ChannelKind } from './channels.repository.js';

/** A create request as the route's schema lets it through; the rules of each kind are checked here. */
export interface ChannelInput {
  kind: ChannelKind;
  url?: string;
  token?: string;
  address?: string;
  subscription?: { endpoint: string; keys: { p256dh: string; auth: string } };
}

/** What is stored: the URL sent to, the public part (an address), the secrets (sealed). */
export interface CheckedChannel {
  kind: ChannelKind;
  url: string;
  target: string | null;
  secrets: Record<string, string>;
}

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function checkedUrl(input: string, field: string, policy: DestinationPolicy): URL {
  try {
    return checkWebhookUrl(input, policy);
  } catch (error) {
    if (error instanceof DestinationRuleError) throw badRequest(error.message, field);
    throw error;
  }
}

const bytesOf = (text: string): number => (BASE64URL.test(text) ? Buffer.from(text, 'base64url').length : -1);

export function checkChannelInput(input: ChannelInput, o: DestinationPolicy & { smtpConfigured: boolean }): CheckedChannel {
  switch (input.kind) {
    case 'webpush': {
      const sub = input.subscription;
      if (!sub)
        throw badRequest('a webpush channel needs subscription: { endpoint, keys: { p256dh, auth } } as PushManager.subscribe gives it', 'subscription');
      const url = checkedUrl(sub.endpoint, 'subscription.endpoint', o);
      // P-256 public key, uncompressed (65 bytes); auth secret 16 bytes (RFC 8291).
      if (bytesOf(sub.keys.p256dh) !== 65) throw badRequest('subscription.keys.p256dh must be the 65-byte P-256 key, base64url', 'subscription.keys.p256dh');
      if (bytesOf(sub.keys.auth) !== 16) throw badRequest('subscription.keys.auth must be the 16-byte secret, base64url', 'subscription.keys.auth');
      return { kind: 'webpush', url: url.href, target: null, secrets: { p256dh: sub.keys.p256dh, auth: sub.keys.auth } };
    }
    case 'ntfy': {
      if (!input.url) throw badRequest('an ntfy channel needs url: the topic URL, e.g. https://ntfy.sh/my-topic', 'url');
      const url = checkedUrl(input.url, 'url', o);
      if (!/^\/[^/]+/.test(url.pathname)) throw badRequest('url must name a topic, e.g. https://ntfy.sh/my-topic', 'url');
      return { kind: 'ntfy', url: url.href, target: null, secrets: input.token ? { token: input.token } : {} };
    }
    case 'email': {
      if (!o.smtpConfigured) throw badRequest('email channels need the server setting SMTP_URL, which is not set', 'kind');
      const address = input.address?.trim() ?? '';
      if (!EMAIL.test(address) || address.length > 254) throw badRequest('address must be an email address', 'address');
      return { kind: 'email', url: `mailto:${address}`, target: address, secrets: {} };
    }
  }
}
