import { createHash, createHmac, randomBytes } from 'node:crypto';

const USER_AGENT = 'CaptureInbox-Webhooks/1.0';

/** What the create response shows once. The prefix makes leaked secrets easy to recognise. */
export const newWebhookSecret = (): string => `cinwh_${randomBytes(32).toString('base64url')}`;

/** The spec's signing key: the lowercase hex SHA-256 of the secret, used as text (its UTF-8 bytes). */
export const signingKeyOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

const hmac = (key: string, data: string) => createHmac('sha256', Buffer.from(key, 'utf8')).update(data, 'utf8');

export interface SignedHeadersInput {
  signingKey: string;
  eventId: string;
  eventName: string;
  body: string;
  /** Unix seconds of this attempt; each attempt is signed afresh. */
  timestamp: number;
}

/**
 * Every header of a delivery: the spec's X-Service-* pair, and the Standard Webhooks trio signed
 * with the same key over "<id>.<timestamp>.<body>", so off-the-shelf verifiers work unchanged.
 */
export function deliveryHeaders(input: SignedHeadersInput): Record<string, string> {
  const { signingKey, eventId, body, timestamp } = input;
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': input.eventName,
    'x-service-delivery': eventId,
    'x-service-signature': `sha256=${hmac(signingKey, body).digest('hex')}`,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${hmac(signingKey, `${eventId}.${timestamp}.${body}`).digest('base64')}`,
  };
}
