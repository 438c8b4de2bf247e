import { preparedQuery } from '../../db/prepared-query.js';
import type { DialectName } from '../../db/create-db.js';
import type { Executor, SavedFiltersTable } from '../../db/schema.js';

export type SavedFilterRow = SavedFiltersTable;

const COLUMNS = ['id', 'user_id', 'name', 'query', 'color', 'position', 'created_at', 'updated_at'] as const;

/** The user's filters in their order. */
export async function findSavedFilters(db: Executor, userId: string): Promise<SavedFilterRow[]> {
  return db.selectFrom('saved_filters').select(COLUMNS).where('user_id', '=', userId).orderBy('position').orderBy('id').execute();
}

/** Compiled once: a saved filter's items read it on every request (decision 0094). */
const savedFilterById = preparedQuery((db, p: { userId: string; id: string }) =>
  db.selectFrom('saved_filters').select(COLUMNS).where('user_id', '=', p.userId).where('id', '=', p.id),
);

export async function findSavedFilter(db: Executor, userId: string, id: string): Promise<SavedFilterRow | undefined> {
  return (await savedFilterById(db, { userId, id }))[0];
}

/**
 * Holds the user's row until the transaction ends, so two creates at once cannot both see 99
 * filters (PostgreSQL; SQLite's writers are serialized already).
 */
export async function lockUser(trx: Executor, dialect: DialectName, userId: string): Promise<void> {
  if (dialect === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function insertSavedFilters(db: Executor, rows: readonly SavedFilterRow[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('saved_filters')
      .values([...rows])
      .execute();
}

export async function updateSavedFilter(
  db: Executor,
  userId: string,
  id: string,
  patch: Partial<Pick<SavedFilterRow, 'name' | 'query' | 'color' | 'position' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('saved_filters').set(patch).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteSavedFilter(db: Executor, userId: string, id: string): Promise<void> {
  await db.deleteFrom('saved_filters').where('user_id', '=', userId).where('id', '=', id).execute();
}

/** Of `ids`, those the user already holds (an import skips them). */
export async function findHeldFilterIds(db: Executor, userId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('saved_filters').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The user's projects, to match `#Name` terms as quick add does: a user has few, and a filter needs only their ids. */
export async function findProjectNames(db: Executor, userId: string): Promise<{ id: string; name: string; is_default: boolean | number }[]> {
  return projectNames(db, { userId });
}

/** Compiled once: every request of a filter naming a project reads them. */
const projectNames = preparedQuery((db, p: { userId: string }) =>
  db.selectFrom('projects').select(['id', 'name', 'is_default']).where('user_id', '=', p.userId),
);
