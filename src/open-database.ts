import { createDb, type CreateDbOptions, type DbHandle } from './db/create-db.js';
import { applySearchQueue } from './modules/search/search-index.sqlite.js';

/**
 * The database as the service uses it: createDb with what the features hand the database layer
 * (on SQLite, the search index's queue applied before each commit). Every process and test that
 * builds services opens its database here; createDb alone is for tests of the database layer.
 */
export function openDatabase(url: string, options: Omit<CreateDbOptions, 'sqliteBeforeCommit'> = {}): DbHandle {
  return createDb(url, { ...options, sqliteBeforeCommit: applySearchQueue });
}
