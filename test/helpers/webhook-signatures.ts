import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from './https-receiver.js';

/*
 * Receiver-side checks written from the spec's words, independent of the service's own signing
 * code, plus the off-the-shelf Standard Webhooks verifier.
 */

const header = (r: ReceivedRequest, name: string): string => {
  const value = r.headers[name];
  if (typeof value !== 'string') throw new Error(`missing header ${name}`);
  return value;
};

/** The spec: HMAC-SHA256 of the raw body, keyed with the lowercase hex SHA-256 of the secret. */
export function serviceSignatureValid(secret: string, r: ReceivedRequest): boolean {
  const key = createHash('sha256').update(secret).digest('hex');
  const expected = Buffer.from(`sha256=${createHmac('sha256', key).update(r.body).digest('hex')}`);
  const given = Buffer.from(header(r, 'x-service-signature'));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `whsec_` form of the key that Standard Webhooks libraries take: base64 of the key's bytes. */
const standardWebhooksSecret = (secret: string): string => `whsec_${Buffer.from(createHash('sha256').update(secret).digest('hex'), 'utf8').toString('base64')}`;

/** Verifies with the `standardwebhooks` package (it also refuses timestamps 5+ minutes off the real clock). */
export function verifyStandardWebhook(secret: string, r: ReceivedRequest): unknown {
  return new Webhook(standardWebhooksSecret(secret)).verify(r.body, {
    'webhook-id': header(r, 'webhook-id'),
    'webhook-timestamp': header(r, 'webhook-timestamp'),
    'webhook-signature': header(r, 'webhook-signature'),
  });
}
