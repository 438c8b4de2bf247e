import { sql } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';

export interface ProjectRow {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  is_default: boolean | number;
  created_at: string;
  updated_at: string;
}

/** `item_count` counts every item (the API's, contract "Projects and tags"); `open_count` the open, unarchived ones (the web app's). */
export type ProjectWithCount = ProjectRow & { item_count: number; open_count: number };

const PROJECT_COLUMNS = ['id', 'user_id', 'name', 'name_key', 'is_default', 'created_at', 'updated_at'] as const;

/** Returns false when a project with that name already exists (a concurrent create won). */
export async function insertProject(db: Executor, row: Omit<ProjectRow, 'is_default'> & { is_default: number }): Promise<boolean> {
  const result = await db
    .insertInto('projects')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'name_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findProjectById(db: Executor, userId: string, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').select(PROJECT_COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function findProjectByKey(db: Executor, userId: string, nameKey: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').select(PROJECT_COLUMNS).where('user_id', '=', userId).where('name_key', '=', nameKey).executeTakeFirst();
}

export async function findDefaultProject(db: Executor, userId: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').select(PROJECT_COLUMNS).where('user_id', '=', userId).where('is_default', '=', 1).executeTakeFirst();
}

/**
 * The projects with their counts, kept on each project's row by triggers on items (migration
 * 2026-11-30-1100, decision 0096): a count at read time was a GROUP BY over every item of the user
 * on every web page (208–955 ms at 100,000 items). On PostgreSQL fold the pending deltas first
 * (foldCountDeltas).
 */
export async function findProjectsWithCounts(db: Executor, userId: string, id?: string): Promise<ProjectWithCount[]> {
  let query = db
    .selectFrom('projects')
    .select([...PROJECT_COLUMNS, 'item_count', 'open_count'])
    .where('user_id', '=', userId);
  if (id) query = query.where('id', '=', id);
  return query.execute();
}

/** Whether PostgreSQL's triggers left count changes for this user that no read has folded yet. */
export async function hasCountDeltas(db: Executor, dialect: DialectName, userId: string): Promise<boolean> {
  // SQLite's triggers keep the project's row itself current: nothing is ever pending, so no query.
  if (dialect === 'sqlite') return false;
  const row = await db.selectFrom('project_count_deltas').select('user_id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves the user's pending count changes into their projects' rows, inside the caller's
 * transaction. DELETE … RETURNING takes exactly the rows it removes, so a change committed
 * meanwhile stays for the next fold; projects are updated in id order, so two folds at once never
 * wait on each other in a cycle.
 */
export async function foldCountDeltas(trx: Executor, userId: string): Promise<void> {
  const taken = await trx.deleteFrom('project_count_deltas').where('user_id', '=', userId).returning(['project_id', 'item_delta', 'open_delta']).execute();
  const sums = new Map<string, { items: number; open: number }>();
  for (const d of taken) {
    const sum = sums.get(d.project_id) ?? { items: 0, open: 0 };
    sum.items += Number(d.item_delta);
    sum.open += Number(d.open_delta);
    sums.set(d.project_id, sum);
  }
  for (const projectId of [...sums.keys()].sort()) {
    const { items, open } = sums.get(projectId)!;
    if (items === 0 && open === 0) continue;
    await sql`update projects set item_count = item_count + ${items}, open_count = open_count + ${open} where user_id = ${userId} and id = ${projectId}`.execute(
      trx,
    );
  }
}

export async function updateProjectName(db: Executor, userId: string, id: string, name: string, nameKey: string, now: string): Promise<void> {
  await db.updateTable('projects').set({ name, name_key: nameKey, updated_at: now }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteProjectById(db: Executor, userId: string, id: string): Promise<void> {
  await db.deleteFrom('projects').where('user_id', '=', userId).where('id', '=', id).execute();
}
