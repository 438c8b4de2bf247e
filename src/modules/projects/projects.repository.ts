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

export async function findProjectsWithCounts(db: Executor, userId: string, id?: string): Promise<ProjectWithCount[]> {
  let query = db
    .selectFrom('projects')
    .leftJoin('items', (join) => join.onRef('items.user_id', '=', 'projects.user_id').onRef('items.project_id', '=', 'projects.id'))
    .select((eb) => [
      ...PROJECT_COLUMNS.map((c) => `projects.${c}` as const),
      eb.fn.count<number | string>('items.id').as('item_count'),
      eb.fn.count<number | string>(eb.case().when('items.status', 'in', ['backlog', 'todo', 'doing']).then(eb.ref('items.id')).end()).as('open_count'),
    ])
    .where('projects.user_id', '=', userId);
  if (id) query = query.where('projects.id', '=', id);
  const rows = await query.groupBy(PROJECT_COLUMNS.map((c) => `projects.${c}` as const)).execute();
  return rows.map((r) => ({ ...r, item_count: Number(r.item_count), open_count: Number(r.open_count) }));
}

export async function updateProjectName(db: Executor, userId: string, id: string, name: string, nameKey: string, now: string): Promise<void> {
  await db.updateTable('projects').set({ name, name_key: nameKey, updated_at: now }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteProjectById(db: Executor, userId: string, id: string): Promise<void> {
  await db.deleteFrom('projects').where('user_id', '=', userId).where('id', '=', id).execute();
}
