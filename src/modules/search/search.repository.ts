import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { DialectName } from '../../db/create-db.js';
import type { DatabaseSchema, Executor, ItemStatus, ItemType } from '../../db/schema.js';
import { newestFirst, type CursorKey } from '../../lib/cursor.js';
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

/**
 * A search's values, flat and computed before the query is built: every search runs a prepared
 * query (prepared-query.ts), whose builder only passes values through. What else decides the SQL is
 * the shape: the dialect, the web inbox's active view, and which of the SQLite walks runs.
 */
type SearchParams = {
  userId: string;
  status: ItemStatus | undefined;
  type: ItemType | undefined;
  projectId: string | undefined;
  completed: number | undefined;
  dueAfter: string | undefined;
  dueBefore: string | undefined;
  tagKey: string | undefined;
  afterK: string | undefined;
  afterId: string | undefined;
  /** SQLite: the FTS5 match expression; PostgreSQL: the tsquery text; undefined without words. */
  text: string | undefined;
  /** SQLite, a page ending inside a millisecond: that millisecond's created_at (see sqliteTextPage). */
  tieAt: string | undefined;
  take: number;
};

function searchParams(dialect: DialectName, userId: string, q: SearchPageQuery): SearchParams {
  return {
    userId,
    status: q.status,
    type: q.type,
    projectId: q.projectId,
    completed: q.isCompleted === undefined ? undefined : q.isCompleted ? 1 : 0,
    dueAfter: q.dueAfter,
    dueBefore: q.dueBefore,
    tagKey: q.tagKey,
    afterK: q.after?.k,
    afterId: q.after?.id,
    text: q.words.length === 0 ? undefined : dialect === 'sqlite' ? ftsMatch(q.words) : tsQuery(q.words),
    tieAt: undefined,
    take: q.limit + 1,
  };
}

/** Every condition but the text one, AND-ed; written against `items` so both query shapes share it. */
function filters(eb: ExpressionBuilder<DatabaseSchema, 'items'>, p: SearchParams, active: boolean): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb('items.user_id', '=', p.userId)];
  if (p.status !== undefined) all.push(eb('items.status', '=', p.status));
  if (active) all.push(eb('items.status', '<>', 'archived'));
  if (p.type !== undefined) all.push(eb('items.type', '=', p.type));
  if (p.projectId !== undefined) all.push(eb('items.project_id', '=', p.projectId));
  if (p.completed !== undefined) all.push(eb('items.is_completed', '=', p.completed));
  if (p.dueAfter !== undefined) all.push(eb('items.due_at', '>=', p.dueAfter));
  if (p.dueBefore !== undefined) all.push(eb('items.due_at', '<=', p.dueBefore));
  if (p.tagKey !== undefined) {
    const tagged = eb
      .selectFrom('item_tags')
      .innerJoin('tags', (join) => join.onRef('tags.user_id', '=', 'item_tags.user_id').onRef('tags.id', '=', 'item_tags.tag_id'))
      .select('item_tags.item_id')
      .where('item_tags.user_id', '=', p.userId)
      .where('tags.name_key', '=', p.tagKey);
    all.push(eb('items.id', 'in', tagged));
  }
  const { afterK: k, afterId: id } = p;
  if (k !== undefined && id !== undefined) {
    all.push(eb.or([eb('items.created_at', '<', k), eb.and([eb('items.created_at', '=', k), eb('items.id', '<', id)])]));
  }
  return eb.and(all);
}

/** The shape of a search query: `<dialect>:<active|all>:<walk>`. */
const shapeOf = (dialect: DialectName, q: SearchPageQuery, walk: string): string => `${dialect}:${q.notArchived ? 'active' : 'all'}:${walk}`;
const activeIn = (shape: string): boolean => shape.split(':')[1] === 'active';

/**
 * Without words: a plain newest-first walk of (user_id, created_at, id), or of a filter's own index
 * (project, due date, archived items); the other filters are checked on the way (decisions/0031).
 * PostgreSQL with words: the same, with the tsvector condition.
 */
const filteredPage = preparedQuery((db, p: SearchParams, shape) => {
  const dialect = shape.split(':')[0] as DialectName;
  let query = db
    .selectFrom('items')
    .select(pageColumns(dialect))
    .where((eb) => filters(eb, p, activeIn(shape)));
  if (p.text !== undefined) query = query.where(sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${p.text})`);
  return query.orderBy('items.created_at', 'desc').orderBy('items.id', 'desc').limit(p.take);
});

/** The user's key range (see the search-key-counter migration for the layout). */
const rangeStart = (userId: string) => sql<number>`((select search_slot from users where id = ${userId}) << ${sql.lit(SLOT_SHIFT)})`;
const rangeEnd = (userId: string) => sql<number>`(((select search_slot from users where id = ${userId}) + 1) << ${sql.lit(SLOT_SHIFT)})`;

/**
 * Where a walk after the cursor starts: past the keys of the cursor's millisecond (its item and the
 * items stamped with it, which may sort on either side of it by id); from the top when no item
 * has that created_at any more. The exact cursor condition in filters() still applies.
 */
const walkEnd = (p: SearchParams) =>
  p.afterK !== undefined
    ? sql<number>`coalesce((select max(search_key) + 1 from items where user_id = ${p.userId} and created_at = ${p.afterK}), ${rangeEnd(p.userId)})`
    : rangeEnd(p.userId);

/**
 * The hits in the user's range of the FTS index, joined to their items; CROSS JOIN keeps the index
 * walk as the outer loop. `walk`: `ordered` goes from the range's start to the cursor, `tie` from
 * just below the first key of the millisecond `tieAt`, `sorted` (keys out of order) the whole range.
 */
function sqliteHits(db: Executor, p: SearchParams, walk: string) {
  const from =
    walk === 'tie' ? sql<number>`(select min(search_key) - 1 from items where user_id = ${p.userId} and created_at = ${p.tieAt})` : rangeStart(p.userId);
  return db
    .selectFrom(sql<{ rowid: number }>`items_fts`.as('items_fts'))
    .crossJoin('items')
    .select(pageColumns('sqlite'))
    .where(sql<SqlBool>`items_fts match ${p.text}`)
    .where(sql<SqlBool>`items_fts.rowid > ${from}`)
    .where(sql<SqlBool>`items_fts.rowid < ${walk === 'sorted' ? rangeEnd(p.userId) : walkEnd(p)}`)
    .where(sql<SqlBool>`items.search_key = items_fts.rowid`);
}

/** SQLite with words, every hit (from `from`) read and sorted: keys out of order, or a millisecond read whole. */
const sqliteSortedPage = preparedQuery((db, p: SearchParams, shape) =>
  sqliteHits(db, p, shape.split(':')[2]!)
    .where((eb) => filters(eb, p, activeIn(shape)))
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(p.take),
);

/**
 * SQLite with words, keys in order: down the user's key range newest first, stopping after `take`
 * hits. In key order, which is created_at order except among items of one millisecond (see
 * sqliteTextPage, which sorts them).
 */
const sqliteWalkedPage = preparedQuery((db, p: SearchParams, shape) =>
  sqliteHits(db, p, 'ordered')
    .where((eb) => filters(eb, p, activeIn(shape)))
    .orderBy(sql`items_fts.rowid`, 'desc')
    .limit(p.take),
);

/**
 * SQLite with words. A user's keys count their items in insertion order, which never goes back in
 * created_at unless users.search_unordered says an insert did (see the migration). In order, the
 * walk goes down the user's key range newest first and stops after limit + 1 hits; items of one
 * millisecond may lie in any id order, so when the page ends inside the millisecond of the walk's
 * last hit, that millisecond is read whole and sorted. Out of order, every hit is read and sorted.
 */
async function sqliteTextPage(db: Executor, q: SearchPageQuery, p: SearchParams): Promise<TaggedViewRow[]> {
  if (await keysUnordered(db, p.userId)) return sqliteSortedPage(db, p, shapeOf('sqlite', q, 'sorted'));
  // Sorted here: an ORDER BY around the walk had SQLite copy every row into a sorter, a sixth of
  // the query's time, to reorder at most the items of a millisecond.
  const rows = (await sqliteWalkedPage(db, p, shapeOf('sqlite', q, 'ordered'))).sort(newestFirst);
  const last = rows[q.limit - 1];
  const next = rows[q.limit];
  if (!last || !next || last.created_at !== next.created_at) return rows;
  // Every hit of that millisecond and after it: from just below the millisecond's first key.
  return sqliteSortedPage(db, { ...p, tieAt: next.created_at }, shapeOf('sqlite', q, 'tie'));
}

const unorderedFlag = preparedQuery((db, p: { userId: string }) =>
  // A SQLite-only column, so not part of the shared schema types.
  db
    .selectFrom('users')
    .select(sql<number>`search_unordered`.as('unordered'))
    .where('id', '=', p.userId),
);

/** SQLite: whether an insert broke the order of the user's search keys (users.search_unordered). */
export async function keysUnordered(db: Executor, userId: string): Promise<boolean> {
  const [row] = await unorderedFlag(db, { userId });
  return row?.unordered !== 0;
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
  const p = searchParams(dialect, userId, q);
  if (dialect === 'sqlite' && p.text !== undefined) return sqliteTextPage(db, q, p);
  return filteredPage(db, p, shapeOf(dialect, q, 'filtered'));
}
