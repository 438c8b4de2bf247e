import type { Executor, ItemCompletionsTable } from '../../db/schema.js';

export async function insertCompletions(db: Executor, rows: readonly ItemCompletionsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('item_completions')
    .values([...rows])
    .execute();
}

/** Occurrences completed so far, per item. */
export async function countCompletions(db: Executor, userId: string, itemIds: readonly string[]): Promise<Map<string, number>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('item_completions')
    .select((eb) => ['item_id', eb.fn.countAll<number | string>().as('n')])
    .where('user_id', '=', userId)
    .where('item_id', 'in', [...itemIds])
    .groupBy('item_id')
    .execute();
  return new Map(rows.map((r) => [r.item_id, Number(r.n)]));
}

/** One page, newest first, after the (completed_at, id) position of the cursor. */
export async function findCompletionsPage(
  db: Executor,
  userId: string,
  itemId: string,
  after: { key: string; id: string } | undefined,
  limit: number,
): Promise<Array<{ id: string; due_at: string | null; completed_at: string }>> {
  let query = db.selectFrom('item_completions').select(['id', 'due_at', 'completed_at']).where('user_id', '=', userId).where('item_id', '=', itemId);
  if (after) query = query.where((eb) => eb.or([eb('completed_at', '<', after.key), eb.and([eb('completed_at', '=', after.key), eb('id', '<', after.id)])]));
  return query
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** Every completion of the user's items (export). */
export async function findUserCompletions(db: Executor, userId: string): Promise<Array<{ item_id: string; due_at: string | null; completed_at: string }>> {
  return db
    .selectFrom('item_completions')
    .select(['item_id', 'due_at', 'completed_at'])
    .where('user_id', '=', userId)
    .orderBy('item_id')
    .orderBy('completed_at')
    .execute();
}

/** What recurrence and reminders read of the user: the zone occurrences are computed in, and the default reminder. */
export async function findUserTimePrefs(db: Executor, userId: string): Promise<{ timezone: string; reminder_default: number | null }> {
  const row = await db.selectFrom('users').select(['timezone', 'reminder_default']).where('id', '=', userId).executeTakeFirst();
  return row ?? { timezone: 'UTC', reminder_default: null };
}

export async function itemExists(db: Executor, userId: string, itemId: string): Promise<boolean> {
  return (await db.selectFrom('items').select('id').where('user_id', '=', userId).where('id', '=', itemId).executeTakeFirst()) !== undefined;
}

/**
 * (Undo of a completion, decision 0076.) Forgets the completion a recurring item's completion logged: the one at `completedAt` for the
 * occurrence due at `dueAt`, else (a clock that moved between the write and its log) the newest
 * for that occurrence. Whether one was found.
 */
export async function deleteCompletion(db: Executor, userId: string, itemId: string, dueAt: string, completedAt: string): Promise<boolean> {
  const of = db.selectFrom('item_completions').select('id').where('user_id', '=', userId).where('item_id', '=', itemId).where('due_at', '=', dueAt);
  const found = (await of.where('completed_at', '=', completedAt).executeTakeFirst()) ?? (await of.orderBy('completed_at', 'desc').executeTakeFirst());
  if (!found) return false;
  await db.deleteFrom('item_completions').where('user_id', '=', userId).where('id', '=', found.id).execute();
  return true;
}
