import { createHash } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { observeBody, requestFingerprint } from '../../src/modules/idempotency/body-fingerprint.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** A request whose body arrives in chunks, as from a socket. */
function request(chunks: string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  for (const chunk of chunks) req.push(Buffer.from(chunk));
  req.push(null);
  return req;
}

describe('observeBody', () => {
  const chunks = ['--boundary\r\n', 'Content-Disposition: form-data; name="file"\r\n\r\n', 'audio bytes', '\r\n--boundary--'];
  const whole = chunks.join('');

  it('hashes what a piping consumer reads (flowing mode), chunk by chunk', async () => {
    const req = request(chunks);
    const hash = observeBody(req);
    const received: Buffer[] = [];
    for await (const chunk of req) received.push(chunk as Buffer);
    expect(Buffer.concat(received).toString()).toBe(whole);
    expect(hash()).toBe(sha256(whole));
  });

  it('hashes what a consumer pulls with read() (paused mode)', async () => {
    const req = request(chunks);
    const hash = observeBody(req);
    await new Promise<void>((resolve) => {
      req.on('readable', () => {
        while (req.read() !== null);
      });
      req.on('end', resolve);
    });
    expect(hash()).toBe(sha256(whole));
  });

  it('answers the hash of an empty body when nothing was read', () => {
    expect(observeBody(request([]))()).toBe(sha256(''));
  });
});

describe('requestFingerprint', () => {
  it('depends on method, path and body, not on the query string', () => {
    const body = sha256('{}');
    const base = requestFingerprint('POST', '/api/v1/capture', body);
    expect(requestFingerprint('POST', '/api/v1/capture?x=1', body)).toBe(base);
    expect(requestFingerprint('PUT', '/api/v1/capture', body)).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/items/bulk', body)).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/capture', sha256('{ }'))).not.toBe(base);
  });
});
