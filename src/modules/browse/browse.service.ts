import type { Db } from '../../db/schema.js';
import { clampLimit, cutPage, decodeCursor } from '../../lib/cursor.js';
import type { ItemLoader } from '../items/item-loader.js';
import type { ItemView } from '../items/item-view.js';
import type { Page } from '../items/items.service.js';
import { tagKey } from '../tags/tags.service.js';
import { findBrowsePage } from './browse.repository.js';

/**
 * The web inbox's filters, named as GET /items/search names them (q, project_id, tag, cursor,
 * limit). The inbox reads through this rather than the search service because it hides archived
 * items by default, which search's single `status` cannot say; `archived` is the one extra.
 */
export interface BrowseQuery {
  q?: string;
  project_id?: string;
  tag?: string;
  archived?: boolean;
  cursor?: string;
  limit?: number;
}

export interface BrowseService {
  /** Newest first. `q` matches each of its words anywhere in the title or body (case-insensitive). */
  browse(userId: string, query: BrowseQuery): Promise<Page<ItemView>>;
}

const ORDERING = 'browse';
const MAX_WORDS = 10;

export function createBrowseService(deps: { db: Db; loader: ItemLoader }): BrowseService {
  const { db, loader } = deps;
  return {
    async browse(userId, query) {
      const limit = clampLimit(query.limit, 50, 200);
      const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
      const after = query.cursor === undefined ? undefined : decodeCursor(ORDERING, query.cursor);
      const rows = await findBrowsePage(db, userId, {
        words,
        limit,
        ...(query.project_id ? { projectId: query.project_id } : {}),
        ...(query.tag?.trim() ? { tagKey: tagKey(query.tag) } : {}),
        ...(query.archived !== undefined ? { archived: query.archived } : {}),
        ...(after ? { after } : {}),
      });
      const page = cutPage(rows, limit, ORDERING, (row) => row.created_at);
      return { items: await loader.views(db, userId, page.rows), next_cursor: page.next_cursor };
    },
  };
}
