import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import type { ReceivedRequest } from './https-receiver.js';

/*
 * The browser's side of Web Push, for tests: a subscription's key pair and auth secret, and the
 * checks a push service and a user agent make on what the server sends: the VAPID JWT (RFC 8292)
 * and the aes128gcm payload (RFC 8291, RFC 8188), decrypted with the subscription's private key.
 * Written on node:crypto (ECDH + HKDF) so it shares no code with the web-push library under test.
 */

export interface PushSubscriber {
  keys: { p256dh: string; auth: string };
  /** The plaintext of one push message; throws when it does not decrypt. */
  decrypt(body: Buffer): string;
}

export function createPushSubscriber(): PushSubscriber {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const uaPublic = ecdh.getPublicKey();
  const auth = randomBytes(16);
  return {
    keys: { p256dh: uaPublic.toString('base64url'), auth: auth.toString('base64url') },
    decrypt(body) {
      // Header: salt (16) | record size (4) | key id length (1) | key id (the sender's public key).
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const asPublic = body.subarray(21, 21 + idLength);
      const ciphertext = body.subarray(21 + idLength);
      const shared = ecdh.computeSecret(asPublic);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
      const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end -= 1;
      if (padded[end] !== 2) throw new Error('no last-record delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>` as a push service does; answers the claims and the key. */
export function verifyVapid(request: ReceivedRequest): { claims: VapidClaims; publicKey: string } {
  const header = String(request.headers.authorization ?? '');
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  if (!m) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [token, k] = [m[1]!, m[2]!];
  const [h, p, s] = token.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const header0 = JSON.parse(Buffer.from(h!, 'base64url').toString('utf8')) as { alg: string };
  if (header0.alg !== 'ES256') throw new Error(`VAPID JWT alg ${header0.alg}`);
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url')))
    throw new Error('VAPID JWT signature does not verify');
  return { claims: JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as VapidClaims, publicKey: k };
}
