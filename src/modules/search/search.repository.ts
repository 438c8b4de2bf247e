import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { DatabaseSchema, Executor, ItemStatus, ItemType } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';
import { ITEM_VIEW_COLUMNS, tagNamesJson, type TaggedViewRow } from '../items/item-view.js';
import { SLOT_SHIFT } from '../../db/migrations/2026-11-24-0001-search-key-counter.js';
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
  /** Internal (the web inbox's "active" view): leaves archived items out. Not part of the API's query. */
  notArchived?: boolean;
}

export interface SearchPageQuery extends SearchFilters {
  after?: CursorKey;
  limit: number;
}

const QUALIFIED_COLUMNS = ITEM_VIEW_COLUMNS.map((c) => `items.${c}` as const);
/** A page's rows with their tag names, in the same statement (see tagNamesJson). */
const pageColumns = (dialect: DialectName) => [...QUALIFIED_COLUMNS, tagNamesJson(dialect).as('tag_names')];

/** Every condition but the text one, AND-ed; written against `items` so both query shapes share it. */
function filters(eb: ExpressionBuilder<DatabaseSchema, 'items'>, userId: string, q: SearchPageQuery): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb('items.user_id', '=', userId)];
  if (q.status !== undefined) all.push(eb('items.status', '=', q.status));
  if (q.notArchived) all.push(eb('items.status', '<>', 'archived'));
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

/**
 * Without words: a plain newest-first walk of (user_id, created_at, id), or of a filter's own index
 * (project, due date, archived items); the other filters are checked on the way (decisions/0031).
 */
async function filteredPage(db: Executor, dialect: DialectName, userId: string, q: SearchPageQuery, text?: Expression<SqlBool>): Promise<TaggedViewRow[]> {
  let query = db
    .selectFrom('items')
    .select(pageColumns(dialect))
    .where((eb) => filters(eb, userId, q));
  if (text) query = query.where(text);
  return query
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** The user's key range (see the search-key-counter migration for the layout). */
const rangeStart = (userId: string) => sql<number>`((select search_slot from users where id = ${userId}) << ${sql.lit(SLOT_SHIFT)})`;
const rangeEnd = (userId: string) => sql<number>`(((select search_slot from users where id = ${userId}) + 1) << ${sql.lit(SLOT_SHIFT)})`;

/**
 * Where a walk after the cursor starts: past the keys of the cursor's millisecond (its item and the
 * items stamped with it, which may sort on either side of it by id); from the top when no item
 * has that created_at any more. The exact cursor condition in filters() still applies.
 */
const walkEnd = (userId: string, after: CursorKey | undefined) =>
  after ? sql`coalesce((select max(search_key) + 1 from items where user_id = ${userId} and created_at = ${after.k}), ${rangeEnd(userId)})` : rangeEnd(userId);

/** The hits in the user's range of the FTS index from `from` up, joined to their items; CROSS JOIN keeps the index walk as the outer loop. */
function sqliteHits(db: Executor, userId: string, q: SearchPageQuery, ordered: boolean, from: RawBuilder<number> = rangeStart(userId)) {
  return db
    .selectFrom(sql<{ rowid: number }>`items_fts`.as('items_fts'))
    .crossJoin('items')
    .select(pageColumns('sqlite'))
    .where(sql<SqlBool>`items_fts match ${ftsMatch(q.words)}`)
    .where(sql<SqlBool>`items_fts.rowid > ${from}`)
    .where(sql<SqlBool>`items_fts.rowid < ${ordered ? walkEnd(userId, q.after) : rangeEnd(userId)}`)
    .where(sql<SqlBool>`items.search_key = items_fts.rowid`)
    .where((eb) => filters(eb, userId, q));
}

/**
 * SQLite with words. A user's keys count their items in insertion order, which never goes back in
 * created_at unless users.search_unordered says an insert did (see the migration). In order, the
 * walk goes down the user's key range newest first and stops after limit + 1 hits; items of one
 * millisecond may lie in any id order, so when the page ends inside the millisecond of the walk's
 * last hit, that millisecond is read whole and sorted. Out of order, every hit is read and sorted.
 */
async function sqliteTextPage(db: Executor, userId: string, q: SearchPageQuery): Promise<TaggedViewRow[]> {
  const ordered = !(await keysUnordered(db, userId));
  const take = q.limit + 1;
  const sorted = (from?: RawBuilder<number>) =>
    sqliteHits(db, userId, q, ordered, from).orderBy('items.created_at', 'desc').orderBy('items.id', 'desc').limit(take);
  if (!ordered) return sorted().execute();
  const walked = sqliteHits(db, userId, q, true)
    .orderBy(sql`items_fts.rowid`, 'desc')
    .limit(take);
  const rows = await db.selectFrom(walked.as('hits')).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  const last = rows[q.limit - 1];
  const next = rows[q.limit];
  if (!last || !next || last.created_at !== next.created_at) return rows;
  // Every hit of that millisecond and after it: from just below the millisecond's first key.
  const tieStart = sql<number>`(select min(search_key) - 1 from items where user_id = ${userId} and created_at = ${next.created_at})`;
  return sorted(tieStart).execute();
}

/** SQLite: whether an insert broke the order of the user's search keys (users.search_unordered). */
export async function keysUnordered(db: Executor, userId: string): Promise<boolean> {
  // A SQLite-only column, so not part of the shared schema types.
  const { rows } = await sql<{ unordered: number }>`select search_unordered as unordered from users where id = ${userId}`.execute(db);
  return rows[0]?.unordered !== 0;
}

/**
 * Puts the user's search keys back in (created_at, id) order and clears users.search_unordered;
 * their FTS entries move with them at the next commit. For a caller that inserted older items (an
 * import): one pass over the user's items.
 */
export async function renumberSearchKeys(db: Executor, userId: string): Promise<void> {
  await sql`insert into items_fts_pending (op, search_key) select 'd', search_key from items where user_id = ${userId}`.execute(db);
  // Negative first: the unique index would trip over old and new keys mid-update.
  await sql`update items set search_key = -search_key where user_id = ${userId}`.execute(db);
  await sql`
    update items set search_key = numbered.k
    from (select rowid as r, ${rangeStart(userId)} + row_number() over (order by created_at, id) as k from items where user_id = ${userId}) as numbered
    where items.rowid = numbered.r`.execute(db);
  await sql`insert into items_fts_pending (op, search_key, title, content_md) select 'i', search_key, title, content_md from items where user_id = ${userId}`.execute(
    db,
  );
  await sql`update users set search_unordered = 0 where id = ${userId}`.execute(db);
}

/** One page plus one row (so the caller knows whether another page exists), newest created first, with tag names. */
export async function findSearchPage(db: Executor, dialect: DialectName, userId: string, q: SearchPageQuery): Promise<TaggedViewRow[]> {
  if (q.words.length === 0) return filteredPage(db, dialect, userId, q);
  if (dialect === 'sqlite') return sqliteTextPage(db, userId, q);
  return filteredPage(db, dialect, userId, q, sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${tsQuery(q.words)})`);
}
