import { hash } from 'node:crypto';
import type { Db, Executor } from '../../db/schema.js';
import { clampLimit, cutPage, decodeCursor } from '../../lib/cursor.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import { taggedItemView, type ItemView } from '../items/item-view.js';
import type { Page } from '../items/items.service.js';
import { tagKey } from '../tags/tags.service.js';
import type { SearchIndex } from './search-index.js';
import type { SearchFilters } from './search.repository.js';
import type { SearchQuery } from './search.schemas.js';
import { searchWords } from './search-words.js';

/** Filters the API does not offer; the web inbox uses them for its views. */
export interface InternalFilters {
  /** Only items that are not archived (the inbox's "active" view). */
  notArchived?: boolean;
}

export interface SearchService {
  search(userId: string, query: SearchQuery, internal?: InternalFilters): Promise<Page<ItemView>>;
  /** After inserting items older than the user's newest (an import), inside its transaction: see SearchIndex.restoreOrder. */
  restoreOrder(trx: Executor, userId: string): Promise<void>;
}

function toFilters(query: SearchQuery, internal: InternalFilters): SearchFilters {
  const filters: SearchFilters = { words: searchWords(query.q) };
  if (internal.notArchived) filters.notArchived = true;
  if (query.status !== undefined) filters.status = query.status;
  if (query.type !== undefined) filters.type = query.type;
  if (query.tag !== undefined) filters.tagKey = tagKey(query.tag);
  if (query.project_id !== undefined) filters.projectId = query.project_id;
  if (query.is_completed !== undefined) filters.isCompleted = query.is_completed;
  if (query.due_after !== undefined) filters.dueAfter = parseTimestamp(query.due_after, 'due_after');
  if (query.due_before !== undefined) filters.dueBefore = parseTimestamp(query.due_before, 'due_before');
  return filters;
}

/** A cursor belongs to one search: the same filters, in their normalised form. */
const orderingOf = (filters: SearchFilters): string => `search:${hash('sha256', JSON.stringify(filters), 'base64url').slice(0, 16)}`;

export function createSearchService(deps: { db: Db; index: SearchIndex }): SearchService {
  const { db, index } = deps;
  return {
    async search(userId, query, internal = {}) {
      const filters = toFilters(query, internal);
      const ordering = orderingOf(filters);
      const limit = clampLimit(query.limit, 50, 200);
      const after = query.cursor === undefined ? undefined : decodeCursor(ordering, query.cursor);
      const rows = await index.findPage(db, userId, { ...filters, limit, ...(after ? { after } : {}) });
      const page = cutPage(rows, limit, ordering, (row) => row.created_at);
      return { items: page.rows.map(taggedItemView), next_cursor: page.next_cursor };
    },
    restoreOrder: (trx, userId) => index.restoreOrder(trx, userId),
  };
}
