import type { FilterNode, ParseOutcome, Span, Term } from './ast.js';
import { Cursor, FilterSyntaxError } from './cursor.js';
import { readTerm } from './read-term.js';

/*
 * The filter language, read by recursive descent (decision 0072). The whole grammar:
 *
 *   query   = or END
 *   or      = and { "|" and }
 *   and     = unary { "&" unary }
 *   unary   = { "!" } primary
 *   primary = "(" or ")" | term                      (terms: read-term.ts, docs/filters.md)
 *
 * Pure and dependency-free, so the web app can bundle it as it is.
 */

/** A saved filter's `query` limit (contract); a longer `?filter=` is refused the same way. */
export const MAX_QUERY_LENGTH = 1000;
/** Far above what a person writes, low enough that no query compiles to a slow statement. */
export const MAX_TERMS = 100;
/** Bounds the recursion here and in the compiler: no input can reach the stack's end. */
export const MAX_DEPTH = 20;

interface State {
  c: Cursor;
  terms: Term[];
  depth: number;
}

/** And/or of operands, flattened so `(a & b) & c` is one node of three. */
function join(kind: 'and' | 'or', operands: FilterNode[]): FilterNode {
  if (operands.length === 1) return operands[0]!;
  return { kind, operands: operands.flatMap((o) => (o.kind === kind ? o.operands : [o])) };
}

function negate(operand: FilterNode, span: Span): FilterNode {
  return operand.kind === 'not' ? operand.operand : { kind: 'not', operand, span };
}

function readOr(s: State): FilterNode {
  const operands = [readAnd(s)];
  for (s.c.skipSpace(); s.c.peek() === '|'; s.c.skipSpace()) {
    s.c.pos += 1;
    operands.push(readAnd(s, '|'));
  }
  return join('or', operands);
}

function readAnd(s: State, after?: string): FilterNode {
  const operands = [readUnary(s, after)];
  for (s.c.skipSpace(); s.c.peek() === '&'; s.c.skipSpace()) {
    s.c.pos += 1;
    operands.push(readUnary(s, '&'));
  }
  return join('and', operands);
}

/** `after` names the operator just read, so a missing term is reported as "expected a term after &". */
function readUnary(s: State, after?: string): FilterNode {
  const { c } = s;
  c.skipSpace();
  const start = c.pos;
  let nots = 0;
  // A loop, not recursion: `!!!!…` of any length costs no stack, and an even count cancels out.
  for (; c.peek() === '!'; c.skipSpace()) {
    c.pos += 1;
    nots += 1;
  }
  if (nots > 0 && (c.atEnd || /[&|)]/u.test(c.peek()))) c.fail('expected a term after !');
  const operand = readPrimary(s, after);
  return nots % 2 === 1 ? negate(operand, { start, end: start + 1 }) : operand;
}

function readPrimary(s: State, after?: string): FilterNode {
  const { c } = s;
  if (c.peek() === '(') {
    const open = c.pos;
    s.depth += 1;
    if (s.depth > MAX_DEPTH) c.fail(`parentheses nest at most ${MAX_DEPTH} deep`, open);
    c.pos += 1;
    c.skipSpace();
    if (c.peek() === ')') c.fail('expected a term inside the parentheses');
    const inner = readOr(s);
    c.skipSpace();
    if (c.peek() !== ')') expectOperator(s, 'expected ) to close the (');
    c.pos += 1;
    s.depth -= 1;
    return inner;
  }
  if ((c.atEnd || /[&|)]/u.test(c.peek())) && after !== undefined) {
    c.fail(c.atEnd ? `expected a term after ${after}` : `expected a term after ${after}, found ${c.describeHere()}`);
  }
  if (s.terms.length >= MAX_TERMS) c.fail(`a filter has at most ${MAX_TERMS} terms`);
  const term = readTerm(c);
  s.terms.push(term);
  return term;
}

/** Something other than an operator follows a term: say what was expected there. */
function expectOperator({ c, terms }: State, atEnd: string): never {
  if (c.atEnd) c.fail(atEnd);
  if (c.peek() === ')') c.fail('found ) without a ( before it');
  if (c.peek() === ',') c.fail('a comma does not join terms here: write | for "or", & for "and"');
  const last = terms.at(-1);
  // "#Side project": the likeliest reason for a word after a name is a name with a space in it.
  if (
    (last?.kind === 'project' || last?.kind === 'tag') &&
    /^\s+$/u.test(c.src.slice(last.span.end, c.pos)) &&
    /^[#@][^"]/u.test(c.src.slice(last.span.start))
  ) {
    const sigil = last.kind === 'project' ? '#' : '@';
    c.fail(`expected & or | before ${c.describeHere()} (a name with spaces goes in quotes: ${sigil}"${last.name} ${c.runUntil()}")`);
  }
  return c.fail(`expected & or | before ${c.describeHere()}`);
}

/** Reads a query into its tree, or says where and why it does not parse. Never throws. */
export function parseFilter(query: string): ParseOutcome {
  if (query.length > MAX_QUERY_LENGTH) {
    return { ok: false, error: { message: `a filter has at most ${MAX_QUERY_LENGTH} characters`, position: MAX_QUERY_LENGTH } };
  }
  const s: State = { c: new Cursor(query), terms: [], depth: 0 };
  try {
    s.c.skipSpace();
    if (s.c.atEnd) s.c.fail('the filter is empty: write a term such as today, #Project or @tag');
    const tree = readOr(s);
    s.c.skipSpace();
    if (!s.c.atEnd) expectOperator(s, '');
    const openOnly = !s.terms.some((t) => t.kind === 'state');
    return { ok: true, filter: { tree, openOnly } };
  } catch (err) {
    if (err instanceof FilterSyntaxError) return { ok: false, error: err.toFilterError() };
    throw err;
  }
}
