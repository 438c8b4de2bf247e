import type { Executor, PairingsTable } from '../../db/schema.js';

export type PairingRow = PairingsTable;

const PAIRING_COLUMNS = [
  'state_hash',
  'label',
  'created_at',
  'expires_at',
  'user_id',
  'approved_at',
  'denied_at',
  'exchanged_at',
  'key_id',
  'scopes',
  'key_expires_in_days',
] as const;

export async function insertPairing(db: Executor, row: PairingRow): Promise<void> {
  await db.insertInto('pairings').values(row).execute();
}

export async function findPairing(db: Executor, stateHash: string): Promise<PairingRow | undefined> {
  return db.selectFrom('pairings').select(PAIRING_COLUMNS).where('state_hash', '=', stateHash).executeTakeFirst();
}

/** Pairings that expired before `before` are forgotten (their states answer 404 from then on). */
export async function deletePairingsExpiredBefore(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('pairings').where('expires_at', '<', before).execute();
}

/**
 * Records the user's decision only while the request is still open; the WHERE clause is the guard,
 * so of two racing decisions exactly one lands. True when this call decided.
 */
export async function markPairingDecided(
  db: Executor,
  stateHash: string,
  decision: { userId: string; approved: boolean; at: string; scopes?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('pairings')
    .set({
      user_id: decision.userId,
      ...(decision.approved ? { approved_at: decision.at } : { denied_at: decision.at }),
      ...(decision.scopes !== undefined ? { scopes: decision.scopes } : {}),
    })
    .where('state_hash', '=', stateHash)
    .where('approved_at', 'is', null)
    .where('denied_at', 'is', null)
    .where('exchanged_at', 'is', null)
    .where('expires_at', '>', decision.at)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Consumes an approved pairing. The WHERE clause is the database-level guard against two
 * concurrent exchanges: PostgreSQL re-checks it after waiting for the other transaction's row lock,
 * SQLite runs the transactions one after the other, so only one of them updates a row.
 */
export async function markPairingExchanged(db: Executor, stateHash: string, keyId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('pairings')
    .set({ exchanged_at: at, key_id: keyId })
    .where('state_hash', '=', stateHash)
    .where('exchanged_at', 'is', null)
    .where('approved_at', 'is not', null)
    .where('denied_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
