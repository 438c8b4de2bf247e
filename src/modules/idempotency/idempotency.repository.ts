import type { Executor, IdempotencyKeysTable } from '../../db/schema.js';

export type KeyRecord = Pick<IdempotencyKeysTable, 'fingerprint' | 'status' | 'headers' | 'body' | 'lease_until' | 'expires_at'>;

export interface NewClaim {
  user_id: string;
  key: string;
  fingerprint: string;
  lease_until: string;
  created_at: string;
  expires_at: string;
}

/** Inserts a running claim unless the key exists; answers whether this call made it. */
export async function insertClaim(db: Executor, claim: NewClaim): Promise<boolean> {
  const row = await db
    .insertInto('idempotency_keys')
    .values({ ...claim, status: null, headers: null, body: null })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findKeyRecord(db: Executor, userId: string, key: string): Promise<KeyRecord | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'headers', 'body', 'lease_until', 'expires_at'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Claims a key whose record has expired, or whose first request stopped holding it (its process
 * died): one statement, so of two takers only one succeeds.
 */
export async function takeOverClaim(db: Executor, claim: NewClaim, now: string): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      fingerprint: claim.fingerprint,
      status: null,
      headers: null,
      body: null,
      lease_until: claim.lease_until,
      created_at: claim.created_at,
      expires_at: claim.expires_at,
    })
    .where('user_id', '=', claim.user_id)
    .where('key', '=', claim.key)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('status', 'is', null), eb('lease_until', '<=', now)])]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/*
 * A claim is identified by its created_at as well: a request whose claim was taken over (its lease
 * ran out) must neither keep its answer in, nor release, the claim of the request that took over.
 */

export async function storeAnswer(
  db: Executor,
  claim: { userId: string; key: string; claimedAt: string },
  answer: { status: number; headers: string; body: string | null },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set(answer)
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.claimedAt)
    .where('status', 'is', null)
    .execute();
}

/** Forgets a running claim, so the key may be used again (answers that are not kept). */
export async function deleteClaim(db: Executor, claim: { userId: string; key: string; claimedAt: string }): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.claimedAt)
    .where('status', 'is', null)
    .execute();
}

export async function deleteExpiredKeys(db: Executor, now: string, limit: number): Promise<number> {
  const doomed = db.selectFrom('idempotency_keys').select(['user_id', 'key']).where('expires_at', '<=', now).limit(limit);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where(({ eb, refTuple }) => eb(refTuple('user_id', 'key'), 'in', doomed.$asTuple('user_id', 'key')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
