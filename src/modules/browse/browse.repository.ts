import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';
import type { ItemRow } from '../items/item-view.js';

const ITEM_COLUMNS = [
  'id', 'user_id', 'project_id', 'parent_id', 'type', 'title', 'content_md', 'is_completed', 'status',
  'status_before_archive', 'due_at', 'archived_at', 'client_id', 'created_at', 'updated_at',
] as const;

export interface BrowseQuery {
  projectId?: string;
  /** A tag's lower-cased name (tags.name_key). */
  tagKey?: string;
  /** Lower-cased words; each must occur in the title or the body. */
  words: string[];
  /** true: only archived items; false: none; undefined: both. */
  archived?: boolean;
  after?: CursorKey;
  limit: number;
}

const likePattern = (word: string): string => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page plus one row, newest created_at first. */
export async function findBrowsePage(db: Executor, userId: string, q: BrowseQuery): Promise<ItemRow[]> {
  let query = db.selectFrom('items').select(ITEM_COLUMNS).where('user_id', '=', userId);
  if (q.projectId !== undefined) query = query.where('project_id', '=', q.projectId);
  if (q.archived !== undefined) query = query.where('status', q.archived ? '=' : '<>', 'archived');
  if (q.tagKey !== undefined) {
    const tagKey = q.tagKey;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('item_tags')
          .innerJoin('tags', (join) => join.onRef('tags.user_id', '=', 'item_tags.user_id').onRef('tags.id', '=', 'item_tags.tag_id'))
          .select(sql.lit(1).as('one'))
          .whereRef('item_tags.user_id', '=', 'items.user_id')
          .whereRef('item_tags.item_id', '=', 'items.id')
          .where('tags.name_key', '=', tagKey),
      ),
    );
  }
  for (const word of q.words) {
    const pattern = likePattern(word);
    query = query.where(sql<boolean>`(lower(coalesce(title, '')) like ${pattern} escape '\\' or lower(coalesce(content_md, '')) like ${pattern} escape '\\')`);
  }
  if (q.after) {
    const { k, id } = q.after;
    query = query.where((eb) => eb.or([eb('created_at', '<', k), eb.and([eb('created_at', '=', k), eb('id', '<', id)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).execute();
}
