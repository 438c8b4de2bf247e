import type { SearchIndex } from './search-index.js';
import { findFilteredPage, searchParams } from './search.repository.js';
import { tsQuery } from './search-words.js';

/**
 * PostgreSQL: the items' generated tsvector column and its GIN index (see the search migration)
 * are written by the database itself; a search with words is the filtered walk with a tsquery.
 */
export function createPostgresSearchIndex(): SearchIndex {
  return {
    findPage: (db, userId, q) => findFilteredPage(db, 'postgres', searchParams(userId, q, q.words.length === 0 ? undefined : tsQuery(q.words)), q.notArchived),
    restoreOrder: () => Promise.resolve(),
  };
}
