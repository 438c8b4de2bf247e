import type { Executor } from '../../db/schema.js';

/** The names `#Name` can match: only the user's own projects, without the item counts a project listing pays for. */
export async function findProjectNames(db: Executor, userId: string): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('projects').select(['id', 'name']).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}
