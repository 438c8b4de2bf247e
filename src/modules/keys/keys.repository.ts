import { preparedQuery } from '../../db/prepared-query.js';
import type { ApiKeysTable, Executor, Plan } from '../../db/schema.js';

export type KeyRow = ApiKeysTable;

export interface KeyWithUser {
  key_id: string;
  secret_hash: string;
  revoked_at: string | null;
  expires_at: string | null;
  scopes: string;
  last_used_at: string | null;
  user_id: string;
  email: string;
  plan: Plan;
  timezone: string;
}

const KEY_COLUMNS = ['id', 'user_id', 'label', 'prefix', 'secret_hash', 'created_at', 'last_used_at', 'revoked_at', 'scopes', 'expires_at'] as const;

export async function insertKey(db: Executor, row: KeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** The key and its owner in one query, compiled once: authentication runs on every request. */
const keyWithUserByPrefix = preparedQuery((db, p: { prefix: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.secret_hash',
      'api_keys.revoked_at',
      'api_keys.expires_at',
      'api_keys.scopes',
      'api_keys.last_used_at',
      'users.id as user_id',
      'users.email',
      'users.plan',
      'users.timezone',
    ])
    .where('api_keys.prefix', '=', p.prefix),
);

export async function findKeyWithUserByPrefix(db: Executor, prefix: string): Promise<KeyWithUser | undefined> {
  const [row] = await keyWithUserByPrefix(db, { prefix });
  return row;
}

export async function updateKeyLastUsed(db: Executor, keyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}

export async function findKeyById(db: Executor, keyId: string): Promise<KeyRow | undefined> {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', keyId).executeTakeFirst();
}

export async function markKeyRevoked(db: Executor, keyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
}

export async function findKeysOfUser(db: Executor, userId: string): Promise<KeyRow[]> {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
}

/** Of these keys, those still usable: neither revoked nor deleted (expiry is the caller's clock). */
export async function findUnrevokedKeyIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // Chunks keep the statement under SQLite's bound-parameter limit.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('api_keys')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 500))
      .where('revoked_at', 'is', null)
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}
