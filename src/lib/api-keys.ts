import { hash, randomInt, timingSafeEqual } from 'node:crypto';

/** `cin_<prefix>_<secret>`: the prefix finds the row, the secret is only ever stored hashed. */
const TOKEN = /^cin_([a-z0-9]{8})_([A-Za-z0-9]{32,128})$/;
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface MintedKey {
  token: string;
  prefix: string;
  secretHash: string;
}

const randomString = (alphabet: string, length: number): string => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

// The one-shot hash: every authenticated request hashes its secret, and it costs a third of a Hash object's.
const secretDigest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** How a key's secret is stored: its digest in hex. */
export const hashSecret = (secret: string): string => secretDigest(secret).toString('hex');

export function mintKey(): MintedKey {
  const prefix = randomString(PREFIX_ALPHABET, 8);
  const secret = randomString(SECRET_ALPHABET, 40);
  return { token: `cin_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

export function parseToken(token: string): { prefix: string; secret: string } | null {
  const match = TOKEN.exec(token);
  return match ? { prefix: match[1]!, secret: match[2]! } : null;
}

// Stored digests decoded once: every authenticated request compares against one, and decoding the hex
// (a new Buffer each time) was a fifth of authentication's own CPU. Bounded like any per-key cache.
const decodedDigests = new Map<string, Buffer>();
const MAX_DECODED_DIGESTS = 10_000;

function decodedDigest(storedHash: string): Buffer {
  let digest = decodedDigests.get(storedHash);
  if (!digest) {
    digest = Buffer.from(storedHash, 'hex');
    if (decodedDigests.size < MAX_DECODED_DIGESTS) decodedDigests.set(storedHash, digest);
  }
  return digest;
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = secretDigest(secret);
  const expected = decodedDigest(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
