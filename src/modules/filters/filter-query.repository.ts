import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { DatabaseSchema, Executor } from '../../db/schema.js';
import { afterKeyset } from '../../db/keyset.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { ITEM_VIEW_COLUMNS, tagNamesJson, type TaggedViewRow } from '../items/item-view.js';
import { ftsWordsCondition } from '../search/search-index.sqlite.js';
import { searchWords, tsQuery } from '../search/search-words.js';
import type { FilterPlan, PlanNode, PlanTerm } from './language/resolve.js';

/*
 * The compiler: a resolved filter plan (language/resolve.ts) becomes one `where` over `items`, and
 * a page of the listing one statement (decision 0072). Every value is bound: names, LIKE prefixes
 * (escaped) and search words never become SQL text. Each term is two-valued (true or false, never
 * NULL), so `!` of a term about `due_at` picks the items without one too.
 */

type Eb = ExpressionBuilder<DatabaseSchema, 'items'>;

/** Which project ids a project term names: the service matches names as quick add does, before compiling. */
export type ProjectIdsOf = (term: Extract<PlanTerm, { kind: 'project' }>) => readonly string[];

export interface CompileContext {
  dialect: DialectName;
  userId: string;
  projectIdsOf: ProjectIdsOf;
}

/**
 * The open-items default, written as literals, not bound values: both partial indexes of open items
 * (migration 2026-11-30-0600-filter-indexes, decision 0087) are defined by this very condition, and
 * SQLite uses a partial index only when the query's WHERE holds the index's own terms as written.
 */
const OPEN_STATUSES = ['backlog', 'todo', 'doing'] as const;
const openStatuses = OPEN_STATUSES.map((s) => sql.lit(s));

/** `%`, `_` and the escape character itself, escaped for `like … escape '\'`: a name is a literal prefix. */
const likePrefix = (name: string): string => `${name.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;

/**
 * The item has a tag meeting `condition`: a correlated EXISTS, probed for each item the walk reaches
 * (item_tags' primary key, then the tag's). An `in (list)` of every item carrying the tag (the
 * first shape) grew with the account's history, done items included; the walk over open items is
 * bounded by the open set (decision 0087).
 */
function tagged(eb: Eb, ctx: CompileContext, condition: (tags: ExpressionBuilder<DatabaseSchema, 'item_tags' | 'tags'>) => Expression<SqlBool>) {
  return eb.exists(
    eb
      .selectFrom('item_tags')
      .innerJoin('tags', (join) => join.onRef('tags.user_id', '=', 'item_tags.user_id').onRef('tags.id', '=', 'item_tags.tag_id'))
      .select('item_tags.item_id')
      .where('item_tags.user_id', '=', ctx.userId)
      .whereRef('item_tags.item_id', '=', 'items.id')
      .where(condition),
  );
}

const hasDue = (eb: Eb) => eb('items.due_at', 'is not', null);

function compileTerm(eb: Eb, term: PlanTerm, ctx: CompileContext): Expression<SqlBool> {
  switch (term.kind) {
    case 'due': {
      const all: Expression<SqlBool>[] = [hasDue(eb)];
      if (term.gte) all.push(eb('items.due_at', '>=', toTimestamp(term.gte)));
      if (term.gt) all.push(eb('items.due_at', '>', toTimestamp(term.gt)));
      if (term.lt) all.push(eb('items.due_at', '<', toTimestamp(term.lt)));
      return eb.and(all);
    }
    case 'overdue':
      // A timed item once its instant has passed; an all-day one (due_at = 00:00 local of its day) once its day has ended.
      return eb.and([
        eb('items.is_completed', '=', 0),
        hasDue(eb),
        eb.or([
          eb.and([eb('items.all_day', '=', 0), eb('items.due_at', '<', toTimestamp(term.timedBefore))]),
          eb.and([eb('items.all_day', '=', 1), eb('items.due_at', '<', toTimestamp(term.allDayBefore))]),
        ]),
      ]);
    case 'no date':
      return eb('items.due_at', 'is', null);
    case 'recurring':
      return eb('items.recurrence_rule', 'is not', null);
    case 'no reminder':
      return eb('items.remind_at', 'is', null);
    case 'project': {
      const ids = ctx.projectIdsOf(term);
      return ids.length === 0 ? eb.lit(false) : eb('items.project_id', 'in', ids);
    }
    case 'tag': {
      const key = term.name.trim().toLowerCase();
      if (term.wildcard && key === '') return tagged(eb, ctx, (t) => t.lit(true));
      return tagged(eb, ctx, (t) => (term.wildcard ? sql<SqlBool>`tags.name_key like ${likePrefix(key)} escape '\\'` : t('tags.name_key', '=', key)));
    }
    case 'no tags':
      return eb.not(
        eb.exists(
          eb.selectFrom('item_tags').select('item_tags.item_id').where('item_tags.user_id', '=', ctx.userId).whereRef('item_tags.item_id', '=', 'items.id'),
        ),
      );
    case 'type':
      if (term.type === 'subtasks') return eb('items.parent_id', 'is not', null);
      return eb('items.type', '=', term.type === 'todos' ? 'todo' : 'note');
    case 'state':
      if (term.state === 'done') return eb('items.is_completed', '=', 1);
      if (term.state === 'archived') return eb('items.archived_at', 'is not', null);
      return eb.lit(true);
    case 'search': {
      const words = searchWords(term.text);
      if (ctx.dialect === 'sqlite') return ftsWordsCondition(ctx.userId, words);
      return sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${tsQuery(words)})`;
    }
  }
}

/** Recurses only as deep as parentheses nest: the parser bounds that at 20, and and/or are flat. */
function compileNode(eb: Eb, node: PlanNode, ctx: CompileContext): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and(node.operands.map((o) => compileNode(eb, o, ctx)));
    case 'or':
      return eb.or(node.operands.map((o) => compileNode(eb, o, ctx)));
    case 'not':
      return eb.not(compileNode(eb, node.operand, ctx));
    default:
      return compileTerm(eb, node, ctx);
  }
}

/** The whole filter as one condition: the plan's tree, and the open-items default when it applies. */
function filterCondition(eb: Eb, plan: FilterPlan, ctx: CompileContext): Expression<SqlBool> {
  const tree = compileNode(eb, plan.tree, ctx);
  return plan.openOnly ? eb.and([eb('items.status', 'in', openStatuses), tree]) : tree;
}

/** The last row of a page in due order: due_at (null last), then newest first. */
export interface DueKey {
  due: string | null;
  created: string;
  id: string;
}

export type FilterPageQuery =
  | { order: 'due'; after: DueKey | undefined; limit: number }
  /** With `since`: the sync order, oldest change first, as GET /items?since= answers. */
  | { order: 'sync'; since: string; after: { k: string; id: string } | undefined; limit: number };

/** Rows after `key` in the due order: later due dates, then the same due date and older, then the items with none. */
function afterDueKey(eb: Eb, key: DueKey): Expression<SqlBool> {
  const olderAt = (due: Expression<SqlBool>) =>
    eb.and([due, eb.or([eb('items.created_at', '<', key.created), eb.and([eb('items.created_at', '=', key.created), eb('items.id', '<', key.id)])])]);
  if (key.due === null) return olderAt(eb('items.due_at', 'is', null));
  return eb.or([eb('items.due_at', '>', key.due), olderAt(eb('items.due_at', '=', key.due)), eb('items.due_at', 'is', null)]);
}

/** One page plus one row of the items a filter picks, with their tag names: one statement. */
export async function findFilterPage(db: Executor, plan: FilterPlan, ctx: CompileContext, q: FilterPageQuery): Promise<TaggedViewRow[]> {
  let query = db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS.map((c) => `items.${c}` as const), tagNamesJson(ctx.dialect).as('tag_names')])
    .where('items.user_id', '=', ctx.userId)
    .where((eb) => filterCondition(eb, plan, ctx));
  if (q.order === 'sync') {
    query = query.where('items.updated_at', '>=', q.since);
    const after = q.after;
    if (after) query = query.where((eb) => afterKeyset(eb, 'items.updated_at', 'items.id', 'asc', after.k, after.id));
    return query
      .orderBy('items.updated_at', 'asc')
      .orderBy('items.id', 'asc')
      .limit(q.limit + 1)
      .execute();
  }
  const after = q.after;
  if (after) query = query.where((eb) => afterDueKey(eb, after));
  return query
    .orderBy('items.due_at', (o) => o.asc().nullsLast())
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(q.limit + 1)
    .execute();
}
