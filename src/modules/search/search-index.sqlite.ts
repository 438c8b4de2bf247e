import type SQLite from 'better-sqlite3';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Executor } from '../../db/schema.js';
import { newestFirst } from '../../lib/cursor.js';
import type { TaggedViewRow } from '../items/item-view.js';
import type { SearchIndex } from './search-index.js';
import { filters, findFilteredPage, pageColumns, searchParams, type SearchPageQuery, type SearchParams } from './search.repository.js';
import { ftsMatch } from './search-words.js';

/*
 * SQLite's search index, whole: the FTS5 table items_fts, keyed by items.search_key, laid out as
 *
 *   search_key = search_slot << SLOT_SHIFT | n,   n = 1, 2, 3, … per user, in insertion order
 *
 * so a user's items are one contiguous range, newest last. Captures are stamped inside their write
 * transaction, which SQLite serializes, so keys follow created_at; an insert older than the item
 * before it (an import, a clock set back) sets users.search_unordered until renumberSearchKeys puts
 * the keys back in order. The items triggers queue FTS changes in items_fts_pending; the database
 * layer runs applySearchQueue just before each commit, so a group commit writes one FTS segment.
 * The migrations that built this keep frozen copies of what they need (2026-11-24-0001-search-key-counter).
 */

/**
 * What the FTS columns hold for an item, as the items triggers queue it (the cjk-search-words
 * migration): search_text, the text with spaces at the word breaks of unspaced scripts, while it
 * is the row's text with spaces added; title and content_md otherwise.
 */
const SEARCH_TEXT_VALID = sql`(search_text is not null and replace(search_text, ' ', '') = replace(coalesce(title, '') || ' ' || coalesce(content_md, ''), ' ', ''))`;
const FTS_TITLE = sql`case when ${SEARCH_TEXT_VALID} then search_text else title end`;
const FTS_CONTENT = sql`case when ${SEARCH_TEXT_VALID} then null else content_md end`;

/** Bits of a user's key range: 2^42 items per user. */
const SLOT_SHIFT = 42;

const rangeStart = (userId: unknown) => sql<number>`((select search_slot from users where id = ${userId}) << ${sql.lit(SLOT_SHIFT)})`;
const rangeEnd = (userId: unknown) => sql<number>`(((select search_slot from users where id = ${userId}) + 1) << ${sql.lit(SLOT_SHIFT)})`;

/**
 * "Every word matches" for an `items` row of the user, as one condition among others (the filter
 * language's `search:`, src/modules/filters): the FTS hits within the user's key range. `match` is
 * ftsMatch's query, passed as a value so that the filters' compiled statement binds it (decision 0094).
 */
export const ftsMatchCondition = (userId: unknown, match: unknown): RawBuilder<SqlBool> =>
  sql<SqlBool>`items.search_key in (select rowid from items_fts where items_fts match ${match} and rowid > ${rangeStart(userId)} and rowid < ${rangeEnd(userId)})`;

/** ftsMatchCondition for a list of words. */
export const ftsWordsCondition = (userId: unknown, words: readonly string[]): RawBuilder<SqlBool> => ftsMatchCondition(userId, ftsMatch(words));

export interface SqliteSearchIndex extends SearchIndex {
  /** The user's next search key, in SQL: the value of a new item's search_key, taken in its insert statement. */
  newItemKey(userId: unknown): RawBuilder<number>;
}

const newItemKey = (userId: unknown) =>
  sql<number>`(coalesce((select max(search_key) from items where search_key > ${rangeStart(userId)} and search_key < ${rangeStart(userId)} + (1 << ${sql.lit(SLOT_SHIFT)})), ${rangeStart(userId)}) + 1)`;

/** Which part of the user's range a walk reads: `ordered` to the cursor, `tie` from one millisecond on, `sorted` all of it. */
type Walk = 'ordered' | 'tie' | 'sorted';
const WALK_SHAPES = {
  'all:tie': { active: false, walk: 'tie' },
  'active:tie': { active: true, walk: 'tie' },
  'all:sorted': { active: false, walk: 'sorted' },
  'active:sorted': { active: true, walk: 'sorted' },
} as const satisfies Record<string, { active: boolean; walk: Walk }>;
type SortedShape = keyof typeof WALK_SHAPES;
const sortedShape = (q: SearchPageQuery, walk: 'tie' | 'sorted'): SortedShape => `${q.notArchived ? 'active' : 'all'}:${walk}`;

/**
 * Where a walk after the cursor starts: past the keys of the cursor's millisecond (its item and the
 * items stamped with it, which may sort on either side of it by id); from the top when no item
 * has that created_at any more. The exact cursor condition in filters() still applies.
 */
const walkEnd = (p: SearchParams) =>
  p.afterK !== undefined
    ? sql<number>`coalesce((select max(search_key) + 1 from items where user_id = ${p.userId} and created_at = ${p.afterK}), ${rangeEnd(p.userId)})`
    : rangeEnd(p.userId);

/** The hits in the user's range of the FTS index, joined to their items; CROSS JOIN keeps the index walk as the outer loop. */
function hits(db: Executor, p: SearchParams, walk: Walk) {
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

/** Every hit (from the walk's start) read and sorted: keys out of order, or a millisecond read whole. */
const sortedPage = preparedQuery((db, p: SearchParams, shape) => {
  const { active, walk } = WALK_SHAPES[shape as SortedShape];
  return hits(db, p, walk)
    .where((eb) => filters(eb, p, active))
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(p.take);
});

/** Keys in order: down the user's key range newest first, stopping after `take` hits, in key order. */
const walkedPage = preparedQuery((db, p: SearchParams, shape) =>
  hits(db, p, 'ordered')
    .where((eb) => filters(eb, p, shape === 'active'))
    .orderBy(sql`items_fts.rowid`, 'desc')
    .limit(p.take),
);

const unorderedFlag = preparedQuery((db, p: { userId: string }) => db.selectFrom('users').select('search_unordered').where('id', '=', p.userId));

/** Whether an insert broke the order of the user's search keys (users.search_unordered). */
export async function keysUnordered(db: Executor, userId: string): Promise<boolean> {
  const [row] = await unorderedFlag(db, { userId });
  return row?.search_unordered !== 0;
}

/**
 * With words. In order, the walk goes down the user's key range newest first and stops after
 * limit + 1 hits; items of one millisecond may lie in any id order, so when the page ends inside
 * the millisecond of the walk's last hit, that millisecond is read whole and sorted. Out of order,
 * every hit is read and sorted.
 */
async function textPage(db: Executor, q: SearchPageQuery, p: SearchParams): Promise<TaggedViewRow[]> {
  if (await keysUnordered(db, p.userId)) return sortedPage(db, p, sortedShape(q, 'sorted'));
  // Sorted here: an ORDER BY around the walk had SQLite copy every row into a sorter, a sixth of
  // the query's time, to reorder at most the items of a millisecond.
  const rows = (await walkedPage(db, p, q.notArchived ? 'active' : 'all')).sort(newestFirst);
  const last = rows[q.limit - 1];
  const next = rows[q.limit];
  if (!last || !next || last.created_at !== next.created_at) return rows;
  return sortedPage(db, { ...p, tieAt: next.created_at }, sortedShape(q, 'tie'));
}

/**
 * Puts the user's search keys back in (created_at, id) order and clears users.search_unordered;
 * their FTS entries move with them at the next commit. One pass over the user's items.
 */
export async function renumberSearchKeys(db: Executor, userId: string): Promise<void> {
  await sql`insert into items_fts_pending (op, search_key) select 'd', search_key from items where user_id = ${userId}`.execute(db);
  // Negative first: the unique index would trip over old and new keys mid-update.
  await sql`update items set search_key = -search_key where user_id = ${userId}`.execute(db);
  await sql`
    update items set search_key = numbered.k
    from (select rowid as r, ${rangeStart(userId)} + row_number() over (order by created_at, id) as k from items where user_id = ${userId}) as numbered
    where items.rowid = numbered.r`.execute(db);
  await sql`insert into items_fts_pending (op, search_key, title, content_md) select 'i', search_key, ${FTS_TITLE}, ${FTS_CONTENT} from items where user_id = ${userId}`.execute(
    db,
  );
  await sql`update users set search_unordered = 0 where id = ${userId}`.execute(db);
}

export function createSqliteSearchIndex(): SqliteSearchIndex {
  return {
    newItemKey,
    async findPage(db, userId, q) {
      if (q.words.length === 0) return findFilteredPage(db, 'sqlite', searchParams(userId, q, undefined), q.notArchived);
      return textPage(db, q, searchParams(userId, q, ftsMatch(q.words)));
    },
    async restoreOrder(trx, userId) {
      if (await keysUnordered(trx, userId)) await renumberSearchKeys(trx, userId);
    },
  };
}

/**
 * The database layer's hook before each commit, on the writer connection: applies the FTS changes
 * the items triggers queued in items_fts_pending. Per key the last queued change wins: every key
 * with a queued delete is removed (removing an absent key does nothing), then each key whose last
 * change is an insert is indexed with that text.
 */
export function applySearchQueue(writer: SQLite.Database): () => void {
  let statements: { pending: SQLite.Statement; remove: SQLite.Statement; insert: SQLite.Statement; clear: SQLite.Statement } | undefined;
  const prepare = () => {
    try {
      return {
        pending: writer.prepare('select 1 from items_fts_pending limit 1').pluck(),
        remove: writer.prepare(`delete from items_fts where rowid in (select search_key from items_fts_pending where op = 'd')`),
        insert: writer.prepare(`
          insert into items_fts (rowid, title, content_md)
          select search_key, title, content_md from (
            select search_key, op, title, content_md,
                   row_number() over (partition by search_key order by seq desc) as latest
            from items_fts_pending)
          where latest = 1 and op = 'i'`),
        clear: writer.prepare('delete from items_fts_pending'),
      };
    } catch (error) {
      // Before the migration that creates the queue (a fresh database being migrated) there is nothing to apply.
      if (/no such table/.test(String(error))) return undefined;
      throw error;
    }
  };
  return () => {
    statements ??= prepare();
    if (!statements) return;
    try {
      if (statements.pending.get() === undefined) return;
      statements.remove.run();
      statements.insert.run();
      statements.clear.run();
    } catch (error) {
      // A migration took the queue away (rolled back); prepare again at the next commit.
      statements = undefined;
      if (!/no such table/.test(String(error))) throw error;
    }
  };
}
