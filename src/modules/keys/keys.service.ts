import type { Db, Executor } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { badRequest, notFound } from '../../errors.js';
import { mintKey, parseToken, secretMatches } from '../../lib/api-keys.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { formatScopes, parseStoredScopes, SCOPES, storedScopesOf, type Scope } from './scopes.js';
import { findKeyById, findKeyWithUserByPrefix, findKeysOfUser, insertKey, markKeyRevoked, updateKeyLastUsed } from './keys.repository.js';

export interface KeyView {
  id: string;
  label: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  scopes: Scope[];
  expires_at: string | null;
}

export interface MintOptions {
  /** Default: all four (contract: a key minted without scopes holds all of them). */
  scopes?: readonly Scope[];
  /** Whole days from now until the key stops working; absent: it never expires. */
  expiresInDays?: number;
}

export interface MintedKey {
  key_id: string;
  token: string;
  scopes: Scope[];
  expires_at: string | null;
}

/** A live key as authentication resolved it. */
export interface AuthenticatedKey {
  user: AuthUser;
  scopes: readonly Scope[];
}

/** A key may live at most ten years; longer is indistinguishable from "never" and likely a typo. */
export const MAX_EXPIRY_DAYS = 3650;
const DAY_MS = 24 * 60 * 60_000;

export interface KeysService {
  mint(userId: string, label: string, options?: MintOptions): Promise<MintedKey>;
  /**
   * Mints inside the caller's transaction (the pairing exchange). No retry on a prefix clash: a
   * failed statement aborts a PostgreSQL transaction, so the caller retries the whole transaction.
   */
  mintIn(trx: Executor, userId: string, label: string, options?: MintOptions): Promise<MintedKey>;
  revoke(keyId: string): Promise<void>;
  /** Revokes one of the user's own keys; another user's key is a 404 like an unknown one. */
  revokeOwn(userId: string, keyId: string): Promise<void>;
  list(userId: string): Promise<KeyView[]>;
  /** The user and scopes behind a bearer token, or null for anything that is not a live key (unknown, revoked, expired). */
  authenticate(token: string): Promise<AuthenticatedKey | null>;
}

/** Writing last_used_at on every request would make each read a write; a minute's precision is enough. */
const LAST_USED_PRECISION_MS = 60_000;
const MINT_ATTEMPTS = 5;

export function createKeysService(deps: { db: Db; clock: Clock; newId: IdGenerator }): KeysService {
  const { db } = deps;

  async function mintIn(trx: Executor, userId: string, label: string, options: MintOptions = {}): Promise<MintedKey> {
    const scopes = formatScopes(options.scopes ?? SCOPES);
    if (scopes === '') throw badRequest('a key needs at least one scope', 'scopes');
    const days = options.expiresInDays;
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS)) {
      throw badRequest(`expiry must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}`, 'expires_in_days');
    }
    const now = deps.clock.now();
    const minted = mintKey();
    const row = {
      id: deps.newId(),
      user_id: userId,
      label: label.trim() || 'API key',
      prefix: minted.prefix,
      secret_hash: minted.secretHash,
      created_at: toTimestamp(now),
      last_used_at: null,
      revoked_at: null,
      scopes,
      expires_at: days === undefined ? null : toTimestamp(new Date(now.getTime() + days * DAY_MS)),
    };
    await insertKey(trx, row);
    return { key_id: row.id, token: minted.token, scopes: parseStoredScopes(row.scopes), expires_at: row.expires_at };
  }

  return {
    mintIn,

    async mint(userId, label, options) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await mintIn(db, userId, label, options);
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
      return rows.map(({ id, label, prefix, created_at, last_used_at, revoked_at, scopes, expires_at }) => ({
        id,
        label,
        prefix,
        created_at,
        last_used_at,
        revoked_at,
        scopes: parseStoredScopes(scopes),
        expires_at,
      }));
    },

    async authenticate(token) {
      const parsed = parseToken(token);
      if (!parsed) return null;
      const found = await findKeyWithUserByPrefix(db, parsed.prefix);
      if (!found || found.revoked_at !== null || !secretMatches(parsed.secret, found.secret_hash)) return null;
      const now = deps.clock.now();
      const stamp = toTimestamp(now);
      if (found.expires_at !== null && stamp >= found.expires_at) return null;
      // Stored timestamps are fixed-width UTC text, so comparing text compares time: no Date.parse on every request.
      if (!found.last_used_at || found.last_used_at <= toTimestamp(new Date(now.getTime() - LAST_USED_PRECISION_MS))) {
        await updateKeyLastUsed(db, found.key_id, stamp);
      }
      return {
        user: { id: found.user_id, email: found.email, plan: found.plan, timezone: found.timezone, keyId: found.key_id, keyExpiresAt: found.expires_at },
        scopes: storedScopesOf(found.scopes),
      };
    },
  };
}
