import { createHash } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { KeysService } from '../keys/keys.service.js';
import { formatScopes, normalizeScopes, parseStoredScopes, SCOPES, type Scope } from '../keys/scopes.js';
import { deletePairingsExpiredBefore, findPairing, insertPairing, markPairingDecided, markPairingExchanged, type PairingRow } from './pairing.repository.js';

/** The link lives 10 minutes (contract), for approval and exchange alike. */
const PAIRING_TTL_MS = 10 * 60_000;
/** After expiring, a state keeps answering 410 this long before it may be forgotten (then 404). */
const PAIRING_RETENTION_MS = 24 * 60 * 60_000;
export const LABEL_MAX = 100;
export const STATE_PATTERN = '^[A-Za-z0-9_-]{32}$';
const STATE = new RegExp(STATE_PATTERN);
/** Bounds the retries of an exchange (prefix clash of a fresh key, or a lost race re-read). */
const EXCHANGE_ATTEMPTS = 5;

export type PairingStatus = 'pending' | 'approved' | 'denied' | 'exchanged' | 'expired';

export interface PairingView {
  status: PairingStatus;
  label: string;
  created_at: string;
  expires_at: string;
  /** Who approved or denied it, once someone did. */
  user_id: string | null;
  /** Asked for while pending; what was granted once approved. */
  scopes: Scope[];
  /** Whole days the key will work once minted; null: it never expires. */
  key_expires_in_days: number | null;
}

export interface PairingService {
  start(input: { state: string; label: string; scopes?: readonly Scope[]; expires_in_days?: number }): Promise<{ ok: true; expires_at: string }>;
  exchange(state: string): Promise<{ token: string; key_id: string; scopes: Scope[]; expires_at: string | null }>;
  /** The request behind an approval link; null when the state is malformed or unknown. */
  find(state: string): Promise<PairingView | null>;
  /**
   * Approves or denies for `userId`, the signed-in user: the key minted later belongs to them.
   * `decided` is false when the request was no longer open (the view says why). Approving grants
   * `granted` (default: everything asked for), narrowed to what was asked for; granting nothing
   * is refused with 400, and the request stays open.
   */
  decide(state: string, userId: string, approve: boolean, granted?: readonly Scope[]): Promise<{ decided: boolean; pairing: PairingView | null }>;
}

/** States are bearer secrets while a pairing is open; only their hash is stored. */
const hashState = (state: string): string => createHash('sha256').update(state, 'utf8').digest('hex');

function statusOf(row: PairingRow, now: string): PairingStatus {
  // Terminal outcomes first: a used or denied link says so even after its 10 minutes.
  if (row.exchanged_at) return 'exchanged';
  if (row.denied_at) return 'denied';
  if (now >= row.expires_at) return 'expired';
  return row.approved_at ? 'approved' : 'pending';
}

const toView = (row: PairingRow, now: string): PairingView => ({
  status: statusOf(row, now),
  label: row.label,
  created_at: row.created_at,
  expires_at: row.expires_at,
  user_id: row.user_id,
  scopes: parseStoredScopes(row.scopes),
  key_expires_in_days: row.key_expires_in_days,
});

/** The contract's exchange answer for every status but `approved`. */
function exchangeRefusal(status: Exclude<PairingStatus, 'approved'>): AppError {
  switch (status) {
    case 'pending':
      return new AppError('not_approved', 'the user has not approved this request yet; poll again in 2 s', { headers: { 'retry-after': '2' } });
    case 'denied':
      return new AppError('access_denied', 'the user denied this request; start a new one to try again');
    case 'expired':
      return new AppError('expired', 'this pairing expired; start a new one');
    case 'exchanged':
      return new AppError('already_exchanged', 'the key of this pairing was already retrieved; start a new one');
  }
}

class LostExchange extends Error {}

/** The poll interval the contract announces (Retry-After: 2); faster polls of an open request are told to slow down. */
const POLL_INTERVAL_MS = 2000;

export function createPairingService(deps: {
  db: Db;
  clock: Clock;
  keys: KeysService;
  pace: (key: string, intervalMs: number) => Promise<boolean>;
}): PairingService {
  const { db, clock } = deps;
  const now = () => toTimestamp(clock.now());

  async function load(state: string): Promise<PairingRow | undefined> {
    return STATE.test(state) ? findPairing(db, hashState(state)) : undefined;
  }

  return {
    async start({ state, label, scopes, expires_in_days: days }) {
      const name = label.trim();
      if (!STATE.test(state)) throw badRequest('state must be 32 characters from A-Z a-z 0-9 _ -', 'state');
      if (name === '' || Array.from(name).length > LABEL_MAX) throw badRequest(`label must be 1 to ${LABEL_MAX} characters`, 'label');
      const at = clock.now();
      const row: PairingRow = {
        state_hash: hashState(state),
        label: name,
        created_at: toTimestamp(at),
        expires_at: toTimestamp(new Date(at.getTime() + PAIRING_TTL_MS)),
        user_id: null,
        approved_at: null,
        denied_at: null,
        exchanged_at: null,
        key_id: null,
        scopes: formatScopes(scopes ?? SCOPES),
        key_expires_in_days: days ?? null,
      };
      try {
        await db.transaction().execute(async (trx) => {
          // Housekeeping rides along with a successful start, so a refused request writes nothing.
          await deletePairingsExpiredBefore(trx, toTimestamp(new Date(at.getTime() - PAIRING_RETENTION_MS)));
          await insertPairing(trx, row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('conflict', 'this state was already used to start a pairing; generate a new one');
        throw error;
      }
      return { ok: true, expires_at: row.expires_at };
    },

    async exchange(state) {
      for (let attempt = 1; ; attempt += 1) {
        const row = await load(state);
        if (!row) throw notFound('pairing');
        const at = now();
        const status = statusOf(row, at);
        // RFC 8628 §3.5: a client polling an open request faster than the interval is told so.
        if (status === 'pending' && attempt === 1 && !(await deps.pace(`poll:${row.state_hash}`, POLL_INTERVAL_MS))) {
          throw new AppError('slow_down', 'polling faster than every 2 s; wait at least 2 s between polls', {
            fields: { retry_after: POLL_INTERVAL_MS / 1000 },
            headers: { 'retry-after': String(POLL_INTERVAL_MS / 1000) },
          });
        }
        if (status !== 'approved') throw exchangeRefusal(status);
        try {
          return await db.transaction().execute(async (trx) => {
            const expiry = row.key_expires_in_days === null ? {} : { expiresInDays: row.key_expires_in_days };
            const key = await deps.keys.mintIn(trx, row.user_id!, row.label, { scopes: parseStoredScopes(row.scopes), ...expiry });
            if (!(await markPairingExchanged(trx, row.state_hash, key.key_id, at))) throw new LostExchange();
            return { token: key.token, key_id: key.key_id, scopes: key.scopes, expires_at: key.expires_at };
          });
        } catch (error) {
          // A lost race rolls its key back; the re-read then answers with the winner's outcome.
          const retry = error instanceof LostExchange || isUniqueViolation(error);
          if (!retry || attempt >= EXCHANGE_ATTEMPTS) throw error instanceof LostExchange ? exchangeRefusal('exchanged') : error;
        }
      }
    },

    async find(state) {
      const row = await load(state);
      return row ? toView(row, now()) : null;
    },

    async decide(state, userId, approve, granted) {
      const row = await load(state);
      if (!row) return { decided: false, pairing: null };
      let scopes: string | undefined;
      if (approve) {
        const asked = parseStoredScopes(row.scopes);
        scopes = formatScopes(normalizeScopes(granted ?? asked).filter((s) => asked.includes(s)));
        if (scopes === '') throw badRequest('approve at least one of the permissions asked for, or deny the request', 'scopes');
      }
      const decided = await markPairingDecided(db, row.state_hash, { userId, approved: approve, at: now(), ...(scopes !== undefined ? { scopes } : {}) });
      const after = await findPairing(db, row.state_hash);
      return { decided, pairing: after ? toView(after, now()) : null };
    },
  };
}
