import type { Executor } from '../../db/schema.js';
import type { TaggedViewRow } from '../items/item-view.js';
import type { SearchPageQuery } from './search.repository.js';

/**
 * What each database does for search that the other does not: its text index, and how a page is
 * found with words. One implementation per dialect (search-index.sqlite.ts, search-index.postgres.ts),
 * chosen once in the container; the search service does not ask which one it has.
 */
export interface SearchIndex {
  /** One page plus one row (so the caller knows whether another page exists), newest created first, with tag names. */
  findPage(db: Executor, userId: string, q: SearchPageQuery): Promise<TaggedViewRow[]>;
  /**
   * After inserting items older than the user's newest (an import), inside the caller's
   * transaction: whatever the index needs so that pages stay cheap. Nothing on PostgreSQL.
   */
  restoreOrder(trx: Executor, userId: string): Promise<void>;
}
