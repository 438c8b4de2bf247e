import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { DialectName } from '../../db/create-db.js';
import type { DatabaseSchema, ItemStatus, ItemType } from '../../db/schema.js';
import { afterKeyset } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursor.js';
import { ITEM_VIEW_COLUMNS, tagNamesJson } from '../items/item-view.js';

/*
 * The portable part of search: the filters and the plain newest-first walk. What each database
 * does with words is its search index's (search-index.sqlite.ts, search-index.postgres.ts).
 */

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
export const pageColumns = (dialect: DialectName) => [...QUALIFIED_COLUMNS, tagNamesJson(dialect).as('tag_names')];

/**
 * A search's values, flat and computed before the query is built: every search runs a prepared
 * query (prepared-query.ts), whose builder only passes values through. What else decides the SQL is
 * the shape: the dialect, the web inbox's active view, and which walk of an index runs.
 */
export type SearchParams = {
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
  /** The index's text condition (an FTS5 match expression, a tsquery); undefined without words. */
  text: string | undefined;
  /** SQLite, a page ending inside a millisecond: that millisecond's created_at (see search-index.sqlite.ts). */
  tieAt: string | undefined;
  take: number;
};

export function searchParams(userId: string, q: SearchPageQuery, text: string | undefined): SearchParams {
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
    text,
    tieAt: undefined,
    take: q.limit + 1,
  };
}

/** Every condition but the text one, AND-ed; written against `items` so every query shape shares it. */
export function filters(eb: ExpressionBuilder<DatabaseSchema, 'items'>, p: SearchParams, active: boolean): Expression<SqlBool> {
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
  if (p.afterK !== undefined && p.afterId !== undefined) all.push(afterKeyset(eb, 'items.created_at', 'items.id', 'desc', p.afterK, p.afterId));
  return eb.and(all);
}

/** The shapes of the filtered walk: the dialect, and whether archived items are left out. */
const FILTERED_SHAPES = {
  'sqlite:all': { dialect: 'sqlite', active: false },
  'sqlite:active': { dialect: 'sqlite', active: true },
  'postgres:all': { dialect: 'postgres', active: false },
  'postgres:active': { dialect: 'postgres', active: true },
} as const satisfies Record<string, { dialect: DialectName; active: boolean }>;
type FilteredShape = keyof typeof FILTERED_SHAPES;

/**
 * A plain newest-first walk of (user_id, created_at, id), or of a filter's own index (project, due
 * date, archived items); the other filters are checked on the way (decisions/0031). With `text`
 * (PostgreSQL), the same with the tsvector condition.
 */
const filteredPage = preparedQuery((db, p: SearchParams, shape) => {
  const { dialect, active } = FILTERED_SHAPES[shape as FilteredShape];
  let query = db
    .selectFrom('items')
    .select(pageColumns(dialect))
    .where((eb) => filters(eb, p, active));
  if (p.text !== undefined) query = query.where(sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${p.text})`);
  return query.orderBy('items.created_at', 'desc').orderBy('items.id', 'desc').limit(p.take);
});

/** One page plus one row of the filtered walk, newest created first, with tag names. */
export const findFilteredPage = (db: Parameters<typeof filteredPage>[0], dialect: DialectName, p: SearchParams, notArchived: boolean | undefined) =>
  filteredPage(db, p, `${dialect}:${notArchived ? 'active' : 'all'}` satisfies FilteredShape);
