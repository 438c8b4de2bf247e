import type { Executor } from '../../db/schema.js';

/** Titles of the user's most recent items with their project: the history the local engine learns from. */
export async function findRecentTitles(
  db: Executor,
  userId: string,
  options: { limit: number; excludeItemId?: string },
): Promise<Array<{ project_id: string; title: string }>> {
  let query = db.selectFrom('items').select(['project_id', 'title']).where('user_id', '=', userId).where('title', 'is not', null);
  if (options.excludeItemId) query = query.where('id', '!=', options.excludeItemId);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  return rows.flatMap((r) => (r.title === null ? [] : [{ project_id: r.project_id, title: r.title }]));
}
