import type { DialectName } from '../../db/create-db.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { searchWords } from '../search/search-words.js';
import { searchQueryText } from './search-term.repository.js';
import type { FilterPlan, PlanNode, PlanTerm } from './language/resolve.js';

/*
 * A filter's statement in two parts (decision 0094): its shape, which decides the SQL, and its
 * values, which are bound. Each value of the plan (a date bound, a project id, a tag name, the
 * search words, the user, the cursor, the limit) is replaced in the shape by its index in
 * `values`, so the compiler (filter-query.repository.ts) builds SQL from the shape alone and cannot
 * bake a value into it; the shape's JSON is the key of the compiled statement. `today | overdue`
 * asked a thousand times is one shape with a new `now` each time.
 */

/** An index into `values`. */
type V = number;

export type ShapeTerm =
  | { k: 'due'; gte: V | null; gt: V | null; lt: V | null }
  | { k: 'overdue'; timed: V; allDay: V }
  | { k: 'no date' | 'recurring' | 'no reminder' | 'no tags' | 'subtasks' | 'done' | 'archived' | 'true' | 'false' | 'any tag' }
  | { k: 'project'; ids: V[] }
  | { k: 'tag'; like: boolean; name: V }
  | { k: 'type'; type: V }
  | { k: 'fts'; match: V }
  | { k: 'tsquery'; query: V };

export type ShapeNode = { k: 'and' | 'or'; of: ShapeNode[] } | { k: 'not'; of: ShapeNode } | ShapeTerm;

/** Which project ids a project term names: the service matches names as quick add does, before compiling. */
export type ProjectIdsOf = (term: Extract<PlanTerm, { kind: 'project' }>) => readonly string[];

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

export type PageShape =
  { order: 'due'; after: null | { due: V | null; created: V; id: V }; limit: V } | { order: 'sync'; since: V; after: null | { k: V; id: V }; limit: V };

export interface FilterStatement {
  dialect: DialectName;
  /** values[user] is the user's id. */
  user: V;
  openOnly: boolean;
  where: ShapeNode;
  page: PageShape;
}

export interface LoweredFilter {
  shape: FilterStatement;
  /** What decides the SQL: the shape's JSON. */
  key: string;
  values: unknown[];
}

export interface LowerContext {
  dialect: DialectName;
  userId: string;
  projectIdsOf: ProjectIdsOf;
}

/** `%`, `_` and the escape character itself, escaped for `like … escape '\'`: a name is a literal prefix. */
const likePrefix = (name: string): string => `${name.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;

export function lowerFilter(plan: FilterPlan, ctx: LowerContext, page: FilterPageQuery): LoweredFilter {
  const values: unknown[] = [];
  const v = (value: unknown): V => values.push(value) - 1;
  const bound = (date: Date | null): V | null => (date ? v(toTimestamp(date)) : null);

  function term(t: PlanTerm): ShapeTerm {
    switch (t.kind) {
      case 'due':
        return { k: 'due', gte: bound(t.gte), gt: bound(t.gt), lt: bound(t.lt) };
      case 'overdue':
        return { k: 'overdue', timed: v(toTimestamp(t.timedBefore)), allDay: v(toTimestamp(t.allDayBefore)) };
      case 'no date':
      case 'recurring':
      case 'no reminder':
      case 'no tags':
        return { k: t.kind };
      case 'project': {
        const ids = ctx.projectIdsOf(t);
        return ids.length === 0 ? { k: 'false' } : { k: 'project', ids: ids.map(v) };
      }
      case 'tag': {
        const key = t.name.trim().toLowerCase();
        if (t.wildcard && key === '') return { k: 'any tag' };
        return t.wildcard ? { k: 'tag', like: true, name: v(likePrefix(key)) } : { k: 'tag', like: false, name: v(key) };
      }
      case 'type':
        return t.type === 'subtasks' ? { k: 'subtasks' } : { k: 'type', type: v(t.type === 'todos' ? 'todo' : 'note') };
      case 'state':
        return t.state === 'all' ? { k: 'true' } : { k: t.state };
      case 'search': {
        const q = searchQueryText(ctx.dialect, searchWords(t.text));
        return q.k === 'fts' ? { k: 'fts', match: v(q.text) } : { k: 'tsquery', query: v(q.text) };
      }
    }
  }

  /** Recurses only as deep as parentheses nest: the parser bounds that at 20, and and/or are flat. */
  function node(n: PlanNode): ShapeNode {
    if (n.kind === 'and' || n.kind === 'or') return { k: n.kind, of: n.operands.map(node) };
    if (n.kind === 'not') return { k: 'not', of: node(n.operand) };
    return term(n);
  }

  const user = v(ctx.userId);
  const where = node(plan.tree);
  let pageShape: PageShape;
  if (page.order === 'due') {
    const a = page.after;
    pageShape = { order: 'due', after: a ? { due: a.due === null ? null : v(a.due), created: v(a.created), id: v(a.id) } : null, limit: v(page.limit + 1) };
  } else {
    const a = page.after;
    pageShape = { order: 'sync', since: v(page.since), after: a ? { k: v(a.k), id: v(a.id) } : null, limit: v(page.limit + 1) };
  }
  const shape: FilterStatement = { dialect: ctx.dialect, user, openOnly: plan.openOnly, where, page: pageShape };
  return { shape, key: JSON.stringify(shape), values };
}
