import type { Executor } from '../../db/schema.js';

export interface RecentTitle {
  id: string;
  project_id: string;
  title: string;
  created_at: string;
}

/** Titles of the user's most recent items with their project, newest first: the history the local engine learns from. */
export async function findRecentTitles(db: Executor, userId: string, options: { limit: number }): Promise<RecentTitle[]> {
  const rows = await db
    .selectFrom('items')
    .select(['id', 'project_id', 'title', 'created_at'])
    .where('user_id', '=', userId)
    .where('title', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
  return rows.flatMap((r) => (r.title === null ? [] : [{ id: r.id, project_id: r.project_id, title: r.title, created_at: r.created_at }]));
}

/** Where some of the user's items are now, with their titles (deleted ones are absent). */
export async function findItemPlaces(
  db: Executor,
  userId: string,
  ids: readonly string[],
): Promise<Array<{ id: string; project_id: string; title: string | null }>> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('items')
    .select(['id', 'project_id', 'title'])
    .where('user_id', '=', userId)
    .where('id', 'in', [...ids])
    .execute();
}
