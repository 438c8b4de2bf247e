import type { Executor, UsersTable } from '../../db/schema.js';

/** The user's own columns (the SQLite search index's bookkeeping columns are its own). */
export type UserRow = Omit<UsersTable, 'search_slot' | 'search_unordered'>;

const USER_COLUMNS = ['id', 'email', 'email_key', 'plan', 'timezone', 'password_hash', 'created_at', 'updated_at', 'reminder_default'] as const;

export async function insertUser(db: Executor, row: Omit<UserRow, 'reminder_default'>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmailKey(db: Executor, emailKey: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('email_key', '=', emailKey).executeTakeFirst();
}

export async function updateUser(
  db: Executor,
  id: string,
  patch: Partial<Pick<UserRow, 'plan' | 'timezone' | 'password_hash' | 'reminder_default'>> & { updated_at: string },
): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/** Replaces a password hash only while it is still `expected`: a password changed meanwhile wins. */
export async function replacePasswordHash(db: Executor, id: string, expected: string, next: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: next }).where('id', '=', id).where('password_hash', '=', expected).execute();
}

/** Every user, oldest first: the first is the server's owner. */
export async function listUsers(db: Executor): Promise<Array<Pick<UserRow, 'id' | 'email' | 'plan' | 'created_at'>>> {
  return db.selectFrom('users').select(['id', 'email', 'plan', 'created_at']).orderBy('created_at').orderBy('id').execute();
}

/** The first user created: the owner of the server (operations.md). */
export async function findFirstUserId(db: Executor): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}
