import type { DialectName } from '../../db/create-db.js';
import { afterKeyset } from '../../db/keyset.js';
import type { Executor } from '../../db/schema.js';
import { clampLimit, cutPage, decodeCursor } from '../../lib/cursor.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import { ITEM_VIEW_COLUMNS, tagNamesJson, taggedItemView, type ItemView, type TaggedViewRow } from '../items/item-view.js';

export interface CompletedQuery {
  since?: string;
  limit?: number;
  cursor?: string;
}

/** Without `since`, the last seven days (clients.md, list_completed). */
const DEFAULT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const ORDERING = 'completed';

/**
 * The user's completed items (archived ones too) whose last change is at or after `since`, the
 * latest first: "what got done". An item keeps no completion time of its own, so its last change
 * stands for it, as the web app's "Done today" reads it (decision 0078).
 */
export async function listCompleted(
  db: Executor,
  dialect: DialectName,
  userId: string,
  query: CompletedQuery,
  now: Date,
): Promise<{ items: ItemView[]; next_cursor: string | null }> {
  const since = query.since === undefined ? new Date(now.getTime() - DEFAULT_WINDOW_MS).toISOString() : parseTimestamp(query.since, 'since');
  const limit = clampLimit(query.limit, 50, 200);
  const ordering = `${ORDERING}:${since}`;
  const after = query.cursor === undefined ? undefined : decodeCursor(ordering, query.cursor);
  let select = db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', userId)
    .where('is_completed', '=', 1)
    .where('updated_at', '>=', since);
  if (after) select = select.where((eb) => afterKeyset(eb, 'updated_at', 'id', 'desc', after.k, after.id));
  const rows: TaggedViewRow[] = await select
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = cutPage(rows, limit, ordering, (row) => row.updated_at);
  return { items: page.rows.map(taggedItemView), next_cursor: page.next_cursor };
}
