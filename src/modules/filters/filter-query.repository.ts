import { sql, type CompiledQuery, type DialectAdapter, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { directQueriesOf } from '../../db/direct-queries.js';
import type { DatabaseSchema, Executor } from '../../db/schema.js';
import { afterKeyset } from '../../db/keyset.js';
import { ITEM_VIEW_COLUMNS, tagNamesJson, type TaggedViewRow } from '../items/item-view.js';
import { ftsMatchCondition } from '../search/search-index.sqlite.js';
import type { FilterPlan } from './language/resolve.js';
import { lowerFilter, type FilterPageQuery, type FilterStatement, type LowerContext, type ShapeNode, type ShapeTerm } from './filter-shape.js';

export type { DueKey, FilterPageQuery, ProjectIdsOf } from './filter-shape.js';
export type CompileContext = LowerContext;

/*
 * The compiler: a filter's shape (filter-shape.ts) becomes one statement over `items`, a page of
 * the listing (decision 0072). Every value is bound: names, LIKE prefixes (escaped) and search
 * words never become SQL text; the builder sees only their indexes. Each term is two-valued (true
 * or false, never NULL), so `!` of a term about `due_at` picks the items without one too.
 * A shape is built and compiled by Kysely once, then each request fills in its values and runs the
 * statement on the database's direct lane (decisions 0064, 0094): on SQLite, building and
 * compiling the tree cost more than the statement.
 */

type Eb = ExpressionBuilder<DatabaseSchema, 'items'>;

/** Stands in for values[index] while the statement is built; each run puts the real value in its place. */
class Slot {
  constructor(readonly index: number) {}
}
/** A stand-in, typed as whatever Kysely expects where it goes. */
const slot = (index: number) => new Slot(index) as never;

/**
 * The open-items default, written as literals, not bound values: both partial indexes of open items
 * (migration 2026-11-30-0600-filter-indexes, decision 0087) are defined by this very condition, and
 * SQLite uses a partial index only when the query's WHERE holds the index's own terms as written.
 */
const OPEN_STATUSES = ['backlog', 'todo', 'doing'] as const;
const openStatuses = OPEN_STATUSES.map((s) => sql.lit(s));

/**
 * The item has a tag meeting `condition`: a correlated EXISTS, probed for each item the walk reaches
 * (item_tags' primary key). An `in (list)` of every item carrying the tag (the first shape) grew
 * with the account's history, done items included; the walk over open items is bounded by the open
 * set (decision 0087). The tags named are an uncorrelated list, read once per statement: joining
 * `tags` inside the probe looked the tag up again for every item (0.96 → 0.78 ms for `#Work &
 * @calls` at 100,000 items, SQLite, decision 0094).
 */
function tagged(eb: Eb, user: number, condition: (tags: ExpressionBuilder<DatabaseSchema, 'tags'>) => Expression<SqlBool>) {
  return eb.exists(
    eb
      .selectFrom('item_tags')
      .select('item_tags.item_id')
      .where('item_tags.user_id', '=', slot(user))
      .whereRef('item_tags.item_id', '=', 'items.id')
      .where('item_tags.tag_id', 'in', eb.selectFrom('tags').select('tags.id').where('tags.user_id', '=', slot(user)).where(condition)),
  );
}

const hasDue = (eb: Eb) => eb('items.due_at', 'is not', null);

function compileTerm(eb: Eb, term: ShapeTerm, s: FilterStatement): Expression<SqlBool> {
  switch (term.k) {
    case 'due': {
      const all: Expression<SqlBool>[] = [hasDue(eb)];
      if (term.gte !== null) all.push(eb('items.due_at', '>=', slot(term.gte)));
      if (term.gt !== null) all.push(eb('items.due_at', '>', slot(term.gt)));
      if (term.lt !== null) all.push(eb('items.due_at', '<', slot(term.lt)));
      return eb.and(all);
    }
    case 'overdue':
      // A timed item once its instant has passed; an all-day one (due_at = 00:00 local of its day) once its day has ended.
      return eb.and([
        eb('items.is_completed', '=', 0),
        hasDue(eb),
        eb.or([
          eb.and([eb('items.all_day', '=', 0), eb('items.due_at', '<', slot(term.timed))]),
          eb.and([eb('items.all_day', '=', 1), eb('items.due_at', '<', slot(term.allDay))]),
        ]),
      ]);
    case 'no date':
      return eb('items.due_at', 'is', null);
    case 'recurring':
      return eb('items.recurrence_rule', 'is not', null);
    case 'no reminder':
      return eb('items.remind_at', 'is', null);
    case 'project':
      return eb('items.project_id', 'in', term.ids.map(slot));
    case 'any tag':
      return tagged(eb, s.user, (t) => t.lit(true));
    case 'tag':
      return tagged(eb, s.user, (t) =>
        term.like ? sql<SqlBool>`tags.name_key like ${slot(term.name)} escape '\\'` : t('tags.name_key', '=', slot(term.name)),
      );
    case 'no tags':
      return eb.not(
        eb.exists(
          eb.selectFrom('item_tags').select('item_tags.item_id').where('item_tags.user_id', '=', slot(s.user)).whereRef('item_tags.item_id', '=', 'items.id'),
        ),
      );
    case 'type':
      return eb('items.type', '=', slot(term.type));
    case 'subtasks':
      return eb('items.parent_id', 'is not', null);
    case 'done':
      return eb('items.is_completed', '=', 1);
    case 'archived':
      return eb('items.archived_at', 'is not', null);
    case 'true':
      return eb.lit(true);
    case 'false':
      return eb.lit(false);
    case 'fts':
      return ftsMatchCondition(slot(s.user), slot(term.match));
    case 'tsquery':
      return sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${slot(term.query)})`;
  }
}

/** Recurses only as deep as parentheses nest: the parser bounds that at 20, and and/or are flat. */
function compileNode(eb: Eb, node: ShapeNode, s: FilterStatement): Expression<SqlBool> {
  switch (node.k) {
    case 'and':
      return eb.and(node.of.map((o) => compileNode(eb, o, s)));
    case 'or':
      return eb.or(node.of.map((o) => compileNode(eb, o, s)));
    case 'not':
      return eb.not(compileNode(eb, node.of, s));
    default:
      return compileTerm(eb, node, s);
  }
}

/** Rows after the cursor in the due order: later due dates, then the same due date and older, then the items with none. */
function afterDueKey(eb: Eb, key: { due: number | null; created: number; id: number }): Expression<SqlBool> {
  const olderAt = (due: Expression<SqlBool>) =>
    eb.and([
      due,
      eb.or([eb('items.created_at', '<', slot(key.created)), eb.and([eb('items.created_at', '=', slot(key.created)), eb('items.id', '<', slot(key.id))])]),
    ]);
  if (key.due === null) return olderAt(eb('items.due_at', 'is', null));
  return eb.or([eb('items.due_at', '>', slot(key.due)), olderAt(eb('items.due_at', '=', slot(key.due))), eb('items.due_at', 'is', null)]);
}

/** The page statement of a shape, built with stand-ins: one page plus one row, with the rows' tag names. */
function buildPage(db: Executor, s: FilterStatement) {
  const query = db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS.map((c) => `items.${c}` as const), tagNamesJson(s.dialect).as('tag_names')])
    .where('items.user_id', '=', slot(s.user))
    .where((eb) => {
      const tree = compileNode(eb, s.where, s);
      return s.openOnly ? eb.and([eb('items.status', 'in', openStatuses), tree]) : tree;
    });
  const p = s.page;
  if (p.order === 'sync') {
    const after = p.after;
    return query
      .where('items.updated_at', '>=', slot(p.since))
      .$if(after !== null, (q) => q.where((eb) => afterKeyset(eb, 'items.updated_at', 'items.id', 'asc', slot(after!.k), slot(after!.id))))
      .orderBy('items.updated_at', 'asc')
      .orderBy('items.id', 'asc')
      .limit(slot(p.limit));
  }
  const after = p.after;
  return query
    .$if(after !== null, (q) => q.where((eb) => afterDueKey(eb, after!)))
    .orderBy('items.due_at', (o) => o.asc().nullsLast())
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(slot(p.limit));
}

/**
 * Compiled statements by shape, per database (its adapter, as prepared-query.ts keys them). Least
 * recently used first, and bounded: a user writes the shapes, and a thousand different queries
 * must not keep a thousand statements.
 */
const MAX_STATEMENTS = 256;
const statements = new WeakMap<DialectAdapter, Map<string, CompiledQuery>>();

function template(db: Executor, shape: FilterStatement, key: string, valueCount: number): CompiledQuery {
  const adapter = db.getExecutor().adapter;
  let byShape = statements.get(adapter);
  if (!byShape) statements.set(adapter, (byShape = new Map<string, CompiledQuery>()));
  let compiled = byShape.get(key);
  if (compiled) {
    // Most recently used last: a Map iterates in insertion order, so the first key is the one to drop.
    byShape.delete(key);
  } else {
    compiled = buildPage(db, shape).compile();
    const used = new Set(compiled.parameters.filter((p): p is Slot => p instanceof Slot).map((p) => p.index));
    if (used.size !== valueCount) throw new Error(`filter statement: ${valueCount - used.size} value(s) did not reach the SQL`);
    if (byShape.size >= MAX_STATEMENTS) byShape.delete(byShape.keys().next().value!);
  }
  byShape.set(key, compiled);
  return compiled;
}

/** The page statement of a filter, with its values in place (the indexes test reads its plan). */
export function compileFilterPage(db: Executor, plan: FilterPlan, ctx: CompileContext, q: FilterPageQuery): CompiledQuery {
  const { shape, key, values } = lowerFilter(plan, ctx, q);
  const compiled = template(db, shape, key, values.length);
  return { ...compiled, parameters: compiled.parameters.map((p) => (p instanceof Slot ? values[p.index] : p)) };
}

/** One page plus one row of the items a filter picks, with their tag names: one statement. */
export async function findFilterPage(db: Executor, plan: FilterPlan, ctx: CompileContext, q: FilterPageQuery): Promise<TaggedViewRow[]> {
  const query = compileFilterPage(db, plan, ctx, q);
  if (!db.isTransaction) {
    const rows = directQueriesOf(db.getExecutor().adapter)?.(query);
    if (rows !== undefined) return (await rows) as TaggedViewRow[];
  }
  return (await db.executeQuery<TaggedViewRow>(query)).rows;
}
