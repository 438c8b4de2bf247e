import type { Executor } from '../../db/schema.js';

/** The SQL of users' email-in tokens (email_in_tokens: one row per user). */

export async function findToken(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('email_in_tokens').select('token').where('user_id', '=', userId).executeTakeFirst();
  return row?.token;
}

/** Gives the user a token unless they have one (two first reads racing keep the first). */
export async function insertTokenIfMissing(db: Executor, row: { user_id: string; token: string; created_at: string }): Promise<void> {
  await db
    .insertInto('email_in_tokens')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** Replaces the user's token: the old one matches nobody from this statement on. */
export async function replaceToken(db: Executor, row: { user_id: string; token: string; created_at: string }): Promise<void> {
  await db
    .insertInto('email_in_tokens')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ token: row.token, created_at: row.created_at }))
    .execute();
}

export async function findUsersByTokens(db: Executor, tokens: readonly string[]): Promise<{ user_id: string; token: string }[]> {
  if (tokens.length === 0) return [];
  return db.selectFrom('email_in_tokens').select(['user_id', 'token']).where('token', 'in', tokens).execute();
}
