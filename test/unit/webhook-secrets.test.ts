import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/lib/secret-box.js';
import { loadOrCreateSecretKeyFile, parseSecretKey } from '../../src/lib/secret-key.js';
import { deliveryHeaders, newWebhookSecret, signingKeyOf } from '../../src/modules/deliveries/transports/signing.js';
import type { ReceivedRequest } from '../helpers/https-receiver.js';
import { serviceSignatureValid, verifyStandardWebhook } from '../helpers/webhook-signatures.js';

describe('parseSecretKey', () => {
  it('reads hex, base64 and base64url of 32+ bytes', () => {
    const bytes = Buffer.alloc(32, 0xfe);
    expect(parseSecretKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretKey(`${bytes.toString('base64')}\n`)).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('base64url'))).toEqual(bytes);
  });

  it('refuses short or non-encoded keys', () => {
    expect(() => parseSecretKey('ab'.repeat(31))).toThrow(/at least 32 bytes/);
    expect(() => parseSecretKey('not a key!')).toThrow(/hex or base64/);
  });
});

describe('loadOrCreateSecretKeyFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the key file once (owner-only) and reads the same key afterwards', () => {
    const path = join(dir, 'data', 'secret.key');
    const first = loadOrCreateSecretKeyFile(path);
    expect(first.created).toBe(true);
    expect(first.key.length).toBe(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const second = loadOrCreateSecretKeyFile(path);
    expect(second).toEqual({ key: first.key, created: false });
    expect(parseSecretKey(readFileSync(path, 'utf8'))).toEqual(first.key);
  });
});

describe('createSecretBox (AES-256-GCM)', () => {
  const box = createSecretBox(Buffer.alloc(32, 1), 'test');

  it('opens what it sealed, with a fresh IV each time', () => {
    const a = box.seal('signing key', 'ctx');
    const b = box.seal('signing key', 'ctx');
    expect(a).not.toBe(b);
    expect(a).not.toContain('signing key');
    expect(box.open(a, 'ctx')).toBe('signing key');
  });

  it('refuses another context, another key, or a tampered value', () => {
    const sealed = box.seal('signing key', 'webhook:1');
    expect(() => box.open(sealed, 'webhook:2')).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 2), 'test').open(sealed, 'webhook:1')).toThrow();
    const [v, iv, data, tag] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, flipped.toString('base64url'), tag].join('.'), 'webhook:1')).toThrow();
  });
});

describe('deliveryHeaders', () => {
  it('signs so that the spec check and the Standard Webhooks verifier both accept', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ id: 'e1', event: 'item.created', data: { item: { title: 'ünïcode ✓' } } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders({ signingKey: signingKeyOf(secret), eventId: 'msg_1', eventName: 'item.created', body, timestamp });
    const request: ReceivedRequest = { method: 'POST', path: '/', headers, body, index: 0 };
    expect(serviceSignatureValid(secret, request)).toBe(true);
    expect(verifyStandardWebhook(secret, request)).toEqual(JSON.parse(body));
    expect(serviceSignatureValid('another secret', request)).toBe(false);
    expect(() => verifyStandardWebhook(secret, { ...request, body: `${body} ` })).toThrow();
    expect(headers).toMatchObject({
      'user-agent': 'CaptureInbox-Webhooks/1.0',
      'x-service-delivery': 'msg_1',
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
    });
  });

  it('refuses a replayed old timestamp in the Standard Webhooks verifier', () => {
    const secret = newWebhookSecret();
    const body = '{}';
    const headers = deliveryHeaders({
      signingKey: signingKeyOf(secret),
      eventId: 'msg_2',
      eventName: 'item.updated',
      body,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(() => verifyStandardWebhook(secret, { method: 'POST', path: '/', headers, body, index: 0 })).toThrow(/timestamp/i);
  });
});
