import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { DatabaseSchema, Executor, ItemStatus, ItemType } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';
import { ITEM_VIEW_COLUMNS, type ItemViewRow } from '../items/item-view.js';
import { SECOND_SHIFT, SLOT_SHIFT } from '../../db/migrations/2026-11-23-0001-search-key-ranges.js';
import { ftsMatch, tsQuery } from './search-words.js';

export interface SearchFilters {
  /** Every word must start a word of title or content_md; none means no text condition. */
  words: readonly string[];
  status?: ItemStatus;
  type?: ItemType;
  /** The tag's name_key (trimmed, lowercased). */
  tagKey?: string;
  projectId?: string;
  isCompleted?: boolean;
  /** Inclusive bounds on due_at, stored form; items without a due date never match them. */
  dueAfter?: string;
  dueBefore?: string;
}

export interface SearchPageQuery extends SearchFilters {
  after?: CursorKey;
  limit: number;
}

const QUALIFIED_COLUMNS = ITEM_VIEW_COLUMNS.map((c) => `items.${c}` as const);

/** Every condition but the text one, AND-ed; written against `items` so both query shapes share it. */
function filters(eb: ExpressionBuilder<DatabaseSchema, 'items'>, userId: string, q: SearchPageQuery): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb('items.user_id', '=', userId)];
  if (q.status !== undefined) all.push(eb('items.status', '=', q.status));
  if (q.type !== undefined) all.push(eb('items.type', '=', q.type));
  if (q.projectId !== undefined) all.push(eb('items.project_id', '=', q.projectId));
  if (q.isCompleted !== undefined) all.push(eb('items.is_completed', '=', q.isCompleted ? 1 : 0));
  if (q.dueAfter !== undefined) all.push(eb('items.due_at', '>=', q.dueAfter));
  if (q.dueBefore !== undefined) all.push(eb('items.due_at', '<=', q.dueBefore));
  if (q.tagKey !== undefined) {
    const tagged = eb
      .selectFrom('item_tags')
      .innerJoin('tags', (join) => join.onRef('tags.user_id', '=', 'item_tags.user_id').onRef('tags.id', '=', 'item_tags.tag_id'))
      .select('item_tags.item_id')
      .where('item_tags.user_id', '=', userId)
      .where('tags.name_key', '=', q.tagKey);
    all.push(eb('items.id', 'in', tagged));
  }
  if (q.after) {
    const { k, id } = q.after;
    all.push(eb.or([eb('items.created_at', '<', k), eb.and([eb('items.created_at', '=', k), eb('items.id', '<', id)])]));
  }
  return eb.and(all);
}

/** Without words: a plain newest-first walk, served by the (user_id, <filter>, created_at, id) indexes. */
async function filteredPage(db: Executor, userId: string, q: SearchPageQuery, text?: Expression<SqlBool>): Promise<ItemViewRow[]> {
  let query = db.selectFrom('items').select(QUALIFIED_COLUMNS).where((eb) => filters(eb, userId, q));
  if (text) query = query.where(text);
  return query.orderBy('items.created_at', 'desc').orderBy('items.id', 'desc').limit(q.limit + 1).execute();
}

const epochSecond = (timestamp: string): number => Math.floor(Date.parse(timestamp) / 1000);

/** The user's first FTS rowid of a second (see the search-key-ranges migration for the layout). */
const secondKey = (userId: string, second: number) =>
  sql`(((select search_slot from users where id = ${userId}) << ${sql.lit(SLOT_SHIFT)}) + (${second} << ${sql.lit(SECOND_SHIFT)}))`;
/** The first rowid past the user's range. */
const rangeEnd = (userId: string) => sql`(((select search_slot from users where id = ${userId}) + 1) << ${sql.lit(SLOT_SHIFT)})`;

/**
 * SQLite with words: walk the user's range of the FTS index (FTS rowid = search_key, which orders a
 * user's items by created_at, see the search-key-ranges migration) from the newest key down, join
 * each hit to its item, and stop after limit + 1 rows. CROSS JOIN keeps the index walk as the outer
 * loop. `fromSecond` widens the walk to every hit at or after that second instead of stopping at
 * the limit.
 */
function sqliteWalk(db: Executor, userId: string, q: SearchPageQuery, fromSecond?: number) {
  return db
    .selectFrom(sql<{ rowid: number }>`items_fts`.as('items_fts'))
    .crossJoin('items')
    .select(QUALIFIED_COLUMNS)
    .where(sql<SqlBool>`items_fts match ${ftsMatch(q.words)}`)
    .where(sql<SqlBool>`items_fts.rowid >= ${secondKey(userId, fromSecond ?? 0)}`)
    // The cursor's second bounds the walk; the exact (created_at, id) condition is in filters().
    .where(sql<SqlBool>`items_fts.rowid < ${q.after ? secondKey(userId, epochSecond(q.after.k) + 1) : rangeEnd(userId)}`)
    .where(sql<SqlBool>`items.search_key = items_fts.rowid`)
    .where((eb) => filters(eb, userId, q));
}

async function sqliteTextPage(db: Executor, userId: string, q: SearchPageQuery): Promise<ItemViewRow[]> {
  const take = q.limit + 1;
  const walked = sqliteWalk(db, userId, q).orderBy(sql`items_fts.rowid`, 'desc').limit(take);
  const rows = await db.selectFrom(walked.as('hits')).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  // Keys order by second, and within one second by insertion, not by created_at and id. When the
  // page ends inside a second shared with the next hit, hits of that second beyond the walk may
  // sort before it: read that second completely and order it exactly.
  const last = rows[q.limit - 1];
  const next = rows[q.limit];
  if (!last || !next || epochSecond(last.created_at) !== epochSecond(next.created_at)) return rows;
  return sqliteWalk(db, userId, q, epochSecond(next.created_at))
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(take)
    .execute();
}

/** One page plus one row (so the caller knows whether another page exists), newest created first. */
export async function findSearchPage(db: Executor, dialect: DialectName, userId: string, q: SearchPageQuery): Promise<ItemViewRow[]> {
  if (q.words.length === 0) return filteredPage(db, userId, q);
  if (dialect === 'sqlite') return sqliteTextPage(db, userId, q);
  return filteredPage(db, userId, q, sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${tsQuery(q.words)})`);
}
