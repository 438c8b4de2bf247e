import type { Executor } from '../../../db/schema.js';

/** An organizer filing the user has not confirmed yet: the item, where it was filed, and when. */
export interface Filing {
  item_id: string;
  project_id: string;
  filed_at: string;
}

/** The user's filings awaiting confirmation, oldest first. */
export async function readFilings(db: Executor, userId: string): Promise<Filing[]> {
  return await db
    .selectFrom('organizer_filings')
    .select(['item_id', 'project_id', 'filed_at'])
    .where('user_id', '=', userId)
    .orderBy('filed_at')
    .orderBy('item_id')
    .execute();
}

/** One filing, one row: a filing of an item filed before replaces it. */
export async function writeFiling(db: Executor, userId: string, filing: Filing): Promise<void> {
  await db
    .insertInto('organizer_filings')
    .values({ user_id: userId, ...filing })
    .onConflict((oc) => oc.columns(['user_id', 'item_id']).doUpdateSet({ project_id: filing.project_id, filed_at: filing.filed_at }))
    .execute();
}

/**
 * Drops these filings. With `filedBy`, only those filed no later than it: a filing of the same item
 * made after the caller read the list is not the one it decided about.
 */
export async function deleteFilings(db: Executor, userId: string, itemIds: readonly string[], filedBy?: string): Promise<void> {
  if (itemIds.length === 0) return;
  let query = db.deleteFrom('organizer_filings').where('user_id', '=', userId).where('item_id', 'in', itemIds);
  if (filedBy !== undefined) query = query.where('filed_at', '<=', filedBy);
  await query.execute();
}
