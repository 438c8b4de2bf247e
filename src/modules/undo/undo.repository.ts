import type { Executor, UndoActionsTable } from '../../db/schema.js';

export async function insertUndo(db: Executor, row: UndoActionsTable): Promise<void> {
  await db.insertInto('undo_actions').values(row).execute();
}

/** The user's undos that expired before `now`: each write prunes them, so the table holds minutes of actions. */
export async function deleteExpiredUndos(db: Executor, userId: string, now: string): Promise<void> {
  await db.deleteFrom('undo_actions').where('user_id', '=', userId).where('expires_at', '<', now).execute();
}

/** Takes the undo out of the table: the one caller that gets it is the one that applies it (once only). */
export async function takeUndo(db: Executor, userId: string, id: string): Promise<UndoActionsTable | undefined> {
  const row = await db.selectFrom('undo_actions').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const taken = await db.deleteFrom('undo_actions').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(taken.numDeletedRows) === 1 ? row : undefined;
}
