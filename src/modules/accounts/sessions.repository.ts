import type { Executor, Plan, WebSessionsTable } from '../../db/schema.js';

export type SessionRow = WebSessionsTable;

export interface SessionWithUser {
  session_id: string;
  user_id: string;
  email: string;
  plan: Plan;
  timezone: string;
  /** When the session was last seen (to a minute); its created_at before the first touch. */
  seen_at: string;
}

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insertInto('web_sessions').values(row).execute();
}

/**
 * The live session and its user in one query: it runs on every web request. Live means before its
 * absolute expiry and seen after `idleSince` (the idle timeout).
 */
export async function findLiveSession(db: Executor, id: string, now: string, idleSince: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('web_sessions')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    .select((eb) => [
      'web_sessions.id as session_id',
      'users.id as user_id',
      'users.email',
      'users.plan',
      'users.timezone',
      eb.fn.coalesce('web_sessions.last_seen_at', 'web_sessions.created_at').as('seen_at'),
    ])
    .where('web_sessions.id', '=', id)
    .where('web_sessions.expires_at', '>', now)
    .where((eb) => eb(eb.fn.coalesce('web_sessions.last_seen_at', 'web_sessions.created_at'), '>', idleSince))
    .executeTakeFirst();
}

export async function touchSession(db: Executor, id: string, at: string): Promise<void> {
  await db.updateTable('web_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('id', '=', id).execute();
}

export async function deleteSessionsExpiredBy(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
}

/** Signs the user out everywhere (after a password change). */
export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
}

export interface SessionListRow {
  id: string;
  created_at: string;
  last_seen_at: string | null;
  expires_at: string;
}

/** The user's live sessions, most recently seen first. */
export async function findSessionsOfUser(db: Executor, userId: string, now: string): Promise<SessionListRow[]> {
  return db
    .selectFrom('web_sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy((eb) => eb.fn.coalesce('last_seen_at', 'created_at'), 'desc')
    .execute();
}

/** Signs the user out everywhere but the session `keepId` (a password change from that session). */
export async function deleteOtherSessions(db: Executor, userId: string, keepId: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).where('id', '<>', keepId).execute();
}

export async function deleteSessionOfUser(db: Executor, userId: string, id: string): Promise<number> {
  const result = await db.deleteFrom('web_sessions').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
