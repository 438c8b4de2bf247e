import type { Db, Executor } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { notFound } from '../../errors.js';
import { mintKey, parseToken, secretMatches } from '../../lib/api-keys.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { AuthUser } from '../users/auth-user.js';
import { findKeyById, findKeyWithUserByPrefix, findKeysOfUser, insertKey, markKeyRevoked, updateKeyLastUsed } from './keys.repository.js';

export interface KeyView {
  id: string;
  label: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface KeysService {
  mint(userId: string, label: string): Promise<{ key_id: string; token: string }>;
  /**
   * Mints inside the caller's transaction (the pairing exchange). No retry on a prefix clash: a
   * failed statement aborts a PostgreSQL transaction, so the caller retries the whole transaction.
   */
  mintIn(trx: Executor, userId: string, label: string): Promise<{ key_id: string; token: string }>;
  revoke(keyId: string): Promise<void>;
  /** Revokes one of the user's own keys; another user's key is a 404 like an unknown one. */
  revokeOwn(userId: string, keyId: string): Promise<void>;
  list(userId: string): Promise<KeyView[]>;
  /** The user behind a bearer token, or null for anything that is not a live key. */
  authenticate(token: string): Promise<AuthUser | null>;
}

/** Writing last_used_at on every request would make each read a write; a minute's precision is enough. */
const LAST_USED_PRECISION_MS = 60_000;
const MINT_ATTEMPTS = 5;

export function createKeysService(deps: { db: Db; clock: Clock; newId: IdGenerator }): KeysService {
  const { db } = deps;

  async function mintIn(trx: Executor, userId: string, label: string): Promise<{ key_id: string; token: string }> {
    const minted = mintKey();
    const row = {
      id: deps.newId(),
      user_id: userId,
      label: label.trim() || 'API key',
      prefix: minted.prefix,
      secret_hash: minted.secretHash,
      created_at: toTimestamp(deps.clock.now()),
      last_used_at: null,
      revoked_at: null,
    };
    await insertKey(trx, row);
    return { key_id: row.id, token: minted.token };
  }

  return {
    mintIn,

    async mint(userId, label) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await mintIn(db, userId, label);
        } catch (error) {
          // 36^8 prefixes make a clash rare; a retry with a fresh prefix settles it.
          if (!isUniqueViolation(error) || attempt >= MINT_ATTEMPTS) throw error;
        }
      }
    },

    async revoke(keyId) {
      const key = isUuid(keyId) ? await findKeyById(db, keyId) : undefined;
      if (!key) throw notFound('key');
      await markKeyRevoked(db, keyId, toTimestamp(deps.clock.now()));
    },

    async revokeOwn(userId, keyId) {
      const key = isUuid(keyId) ? await findKeyById(db, keyId) : undefined;
      if (!key || key.user_id !== userId) throw notFound('key');
      await markKeyRevoked(db, keyId, toTimestamp(deps.clock.now()));
    },

    async list(userId) {
      const rows = await findKeysOfUser(db, userId);
      return rows.map(({ id, label, prefix, created_at, last_used_at, revoked_at }) => ({ id, label, prefix, created_at, last_used_at, revoked_at }));
    },

    async authenticate(token) {
      const parsed = parseToken(token);
      if (!parsed) return null;
      const found = await findKeyWithUserByPrefix(db, parsed.prefix);
      if (!found || found.revoked_at !== null || !secretMatches(parsed.secret, found.secret_hash)) return null;
      const now = deps.clock.now();
      if (!found.last_used_at || now.getTime() - Date.parse(found.last_used_at) >= LAST_USED_PRECISION_MS) {
        await updateKeyLastUsed(db, found.key_id, toTimestamp(now));
      }
      return { id: found.user_id, email: found.email, plan: found.plan, timezone: found.timezone, keyId: found.key_id };
    },
  };
}
