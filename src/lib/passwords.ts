import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * Passwords are hashed with Argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1
 * lane); see docs/decisions/0001-password-hashing.md for the choice and the measured cost. The
 * PHC string keeps the parameters with each hash, so they can rise: a hash made with other
 * parameters, or with the scrypt of earlier versions, verifies and is replaced at the next sign-in.
 */
const ARGON2_PARAMS = Object.freeze({ memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 });
/** Argon2id (algorithm 2 of @node-rs/argon2's const enum, which isolated modules cannot import). */
const ARGON2ID = 2;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`;

const argon2 = () => import('./argon2-library.js');

export async function hashPassword(password: string): Promise<string> {
  const { argon2Hash } = await argon2();
  return argon2Hash(password, { ...ARGON2_PARAMS, algorithm: ARGON2ID });
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2')) {
    const { argon2Verify } = await argon2();
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false; // a malformed stored hash matches nothing
    }
  }
  return verifyLegacyScrypt(password, stored);
}

/** True when the hash was made by an older scheme or with other parameters than today's. */
export const needsRehash = (stored: string): boolean => !stored.startsWith(CURRENT_PREFIX);

/** `scrypt$N$r$p$salt$hash`, as versions before Argon2id stored it (N=2^14). Verify only. */
async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

function derive(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** The old format, for tests of the upgrade path and for nothing else. */
export async function legacyScryptHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
