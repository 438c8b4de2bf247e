import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { deleteClaim, deleteExpiredKeys, findKeyRecord, insertClaim, storeAnswer, takeOverClaim, type NewClaim } from './idempotency.repository.js';

/** The contract: an answer is kept 24 hours per user and key. */
const KEY_LIFETIME_MS = 24 * 3600_000;
/**
 * How long a first request holds its key before another request may take it over: only a process
 * that died mid-request leaves a claim this old, so it is far longer than any request may run.
 */
const CLAIM_LEASE_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 500;
/** Claim attempts when the record changes under us (taken over, expired, released). */
const MAX_CLAIM_TRIES = 3;

export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** The key a request holds; `claimedAt` tells its claim from a later one on the same key. */
export interface KeyClaim {
  userId: string;
  key: string;
  claimedAt: string;
}

export type KeyOutcome = { kind: 'run'; claim: KeyClaim } | { kind: 'replay'; answer: KeptAnswer } | { kind: 'reused' } | { kind: 'running' };

export interface IdempotencyService {
  /** Decides what a request with this key does: run it (the key is now claimed), replay, or refuse. */
  begin(userId: string, key: string, fingerprint: string): Promise<KeyOutcome>;
  /** Keeps the answer of the request that claimed the key. */
  complete(claim: KeyClaim, answer: KeptAnswer): Promise<void>;
  /** Lets the key go without keeping an answer (5xx, 401, 429). */
  release(claim: KeyClaim): Promise<void>;
}

export function createIdempotencyService(deps: { db: Db; clock: Clock }): IdempotencyService {
  const { db } = deps;
  let lastPrune = Number.NEGATIVE_INFINITY;

  async function pruneNow(nowMs: number): Promise<void> {
    if (nowMs - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = nowMs;
    await deleteExpiredKeys(db, toTimestamp(new Date(nowMs)), PRUNE_BATCH);
  }

  return {
    async begin(userId, key, fingerprint) {
      const nowMs = deps.clock.now().getTime();
      const now = toTimestamp(new Date(nowMs));
      await pruneNow(nowMs);
      const claim: NewClaim = {
        user_id: userId,
        key,
        fingerprint,
        lease_until: toTimestamp(new Date(nowMs + CLAIM_LEASE_MS)),
        created_at: now,
        expires_at: toTimestamp(new Date(nowMs + KEY_LIFETIME_MS)),
      };
      const run: KeyOutcome = { kind: 'run', claim: { userId, key, claimedAt: now } };
      for (let i = 0; i < MAX_CLAIM_TRIES; i += 1) {
        if (await insertClaim(db, claim)) return run;
        const record = await findKeyRecord(db, userId, key);
        if (!record) continue; // released in between: try to claim again
        const expired = record.expires_at <= now;
        const abandoned = record.status === null && record.lease_until <= now;
        if (expired || abandoned) {
          if (await takeOverClaim(db, claim, now)) return run;
          continue;
        }
        if (record.status === null) return { kind: 'running' };
        if (record.fingerprint !== fingerprint) return { kind: 'reused' };
        return { kind: 'replay', answer: { status: record.status, headers: JSON.parse(record.headers ?? '{}') as Record<string, string>, body: record.body } };
      }
      // The record kept changing under us: as if the first request were still running.
      return { kind: 'running' };
    },

    async complete(claim, answer) {
      await storeAnswer(db, claim, { status: answer.status, headers: JSON.stringify(answer.headers), body: answer.body });
    },

    async release(claim) {
      await deleteClaim(db, claim);
    },
  };
}
