import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit, decodeToken, encodeToken } from '../../lib/cursor.js';
import { isUuid } from '../../lib/ids.js';
import { isCanonicalTimestamp, parseTimestamp } from '../../lib/timestamps.js';
import { taggedItemView, type ItemView } from '../items/item-view.js';
import type { FilterError, FilterNode, ParsedFilter, ParseOutcome, Term } from './language/ast.js';
import { parseFilter } from './language/parse.js';
import { resolveFilter, type DateReading, type FilterPlan, type PlanTerm } from './language/resolve.js';
import { findFilterPage, type DueKey, type FilterPageQuery, type ProjectIdsOf } from './filter-query.repository.js';
import { findProjectNames } from './saved-filters.repository.js';

/*
 * The items a query picks, a page at a time (contract "Filters and saved views"): parse, read the
 * dates in the user's zone, find the projects named, then one statement (filter-query.repository).
 */

export interface FilterItemsQuery {
  since?: string;
  limit?: number;
  cursor?: string;
}

export interface FilterUser {
  id: string;
  timezone: string;
}

export interface ItemPage {
  items: ItemView[];
  next_cursor: string | null;
}

export interface FilterItems {
  /** 400 with the position when the query does not parse or names an unknown project. */
  items(user: FilterUser, query: string, q: FilterItemsQuery): Promise<ItemPage>;
  /**
   * Parses a query and reads its dates without reading items: a saved filter's query is checked so.
   * Project names are not checked here: a filter may name a project that is made (or renamed) later.
   */
  check(user: FilterUser, query: string): Promise<void>;
}

/** The contract's 400: `details: [{ field: "filter", message, position }]`. */
const filterError = (error: FilterError): AppError =>
  new AppError('bad_request', `filter: ${error.message} (at ${error.position})`, [{ field: 'filter', message: error.message, position: error.position }]);

/** Matching key of a project name, exactly quick add's (quick-add/grammar.ts projectKey), which loads chrono with it. */
const projectKey = (name: string): string => name.toLowerCase().replace(/\s+/gu, '');

function terms(node: FilterNode, out: Term[] = []): Term[] {
  if (node.kind === 'and' || node.kind === 'or') for (const o of node.operands) terms(o, out);
  else if (node.kind === 'not') terms(node.operand, out);
  else out.push(node);
  return out;
}

const needsDateReader = (filter: ParsedFilter): boolean => terms(filter.tree).some((t) => t.kind === 'date' && 'phrase' in t);

const invalidCursor = () =>
  new AppError('bad_request', 'cursor is not valid here; pass next_cursor from the previous page unchanged', [
    { field: 'cursor', message: 'not a cursor of this listing' },
  ]);

function decodeDueCursor(cursor: string): DueKey {
  const parsed = decodeToken(cursor, 4);
  if (!parsed) throw invalidCursor();
  const [o, due, created, id] = parsed;
  const ok =
    o === 'filter' &&
    (due === null || (typeof due === 'string' && isCanonicalTimestamp(due))) &&
    typeof created === 'string' &&
    isCanonicalTimestamp(created) &&
    typeof id === 'string' &&
    isUuid(id);
  if (!ok) throw invalidCursor();
  return { due: due, created: created, id: id };
}

function decodeSyncCursor(cursor: string): { k: string; id: string } {
  const parsed = decodeToken(cursor, 3);
  if (!parsed) throw invalidCursor();
  const [o, k, id] = parsed;
  if (o !== 'filter-sync' || typeof k !== 'string' || !isCanonicalTimestamp(k) || typeof id !== 'string' || !isUuid(id)) throw invalidCursor();
  return { k, id };
}

/**
 * Parsed queries by their text, least recently used first: parsing is pure, and a client asks for
 * the same few views again and again (decision 0094). The trees are shared, so nothing downstream
 * may change them (resolve.ts builds a new tree). Bounded: each entry is at most a 1,000-character
 * query's tree.
 */
const MAX_PARSED = 512;
const parsedQueries = new Map<string, ParseOutcome>();

function parseCached(query: string): ParseOutcome {
  let outcome = parsedQueries.get(query);
  if (outcome) parsedQueries.delete(query);
  else {
    outcome = parseFilter(query);
    if (parsedQueries.size >= MAX_PARSED) parsedQueries.delete(parsedQueries.keys().next().value!);
  }
  parsedQueries.set(query, outcome);
  return outcome;
}

export function createFilterItems(deps: { db: Db; dialect: DialectName; clock: Clock }): FilterItems {
  const { db, dialect } = deps;

  function parse(query: string): ParsedFilter {
    const parsed = parseCached(query);
    if (!parsed.ok) throw filterError(parsed.error);
    return parsed.filter;
  }

  async function plan(user: FilterUser, filter: ParsedFilter): Promise<FilterPlan> {
    const now = deps.clock.now();
    // chrono-node weighs on start-up: loaded only when a query has a `due: D` to read.
    let readDate: (phrase: string) => DateReading | null = () => null;
    if (needsDateReader(filter)) {
      const { readFilterDate } = await import('./read-filter-date.js');
      readDate = (phrase) => readFilterDate(phrase, now, user.timezone);
    }
    const resolved = resolveFilter(filter, { now, timezone: user.timezone, readDate });
    if (!resolved.ok) throw filterError(resolved.error);
    return resolved.plan;
  }

  /** Each project term's ids, from the user's projects; an unknown name is the contract's 400 naming it. */
  async function projectIds(userId: string, filter: ParsedFilter): Promise<ProjectIdsOf> {
    const named = terms(filter.tree).filter((t): t is Extract<Term, { kind: 'project' }> => t.kind === 'project');
    const byTerm = new Map<string, string[]>();
    if (named.length === 0) return () => [];
    const projects = await findProjectNames(db, userId);
    const keyOf = (t: { span: { start: number } }) => String(t.span.start);
    for (const term of named) {
      const key = projectKey(term.name);
      const ids = term.inbox
        ? projects.filter((p) => Boolean(p.is_default)).map((p) => p.id)
        : projects.filter((p) => (term.wildcard ? projectKey(p.name).startsWith(key) : projectKey(p.name) === key)).map((p) => p.id);
      if (ids.length === 0 && !term.wildcard) throw filterError({ message: `there is no project named "${term.name}"`, position: term.span.start });
      byTerm.set(keyOf(term), ids);
    }
    // Terms keep their span through resolving: the span's start names the term.
    return (term: Extract<PlanTerm, { kind: 'project' }>) => byTerm.get(keyOf(term)) ?? [];
  }

  return {
    async check(user, query) {
      await plan(user, parse(query));
    },

    async items(user, query, q) {
      const filter = parse(query);
      const [resolved, projectIdsOf] = await Promise.all([plan(user, filter), projectIds(user.id, filter)]);
      const limit = clampLimit(q.limit, 50, 200);
      const ctx = { dialect, userId: user.id, projectIdsOf };
      const cursor = q.cursor;
      const page: FilterPageQuery =
        q.since === undefined
          ? { order: 'due', after: cursor === undefined ? undefined : decodeDueCursor(cursor), limit }
          : { order: 'sync', since: parseTimestamp(q.since, 'since'), after: cursor === undefined ? undefined : decodeSyncCursor(cursor), limit };
      const rows = await findFilterPage(db, resolved, ctx, page);
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      let next: string | null = null;
      if (rows.length > limit && last) {
        next = page.order === 'due' ? encodeToken(['filter', last.due_at, last.created_at, last.id]) : encodeToken(['filter-sync', last.updated_at, last.id]);
      }
      return { items: shown.map(taggedItemView), next_cursor: next };
    },
  };
}
