/*
 * The filter language's typed tree (contract "Filters and saved views"; the grammar is in
 * parse.ts, the reference in docs/filters.md). Pure types: the web bundles the parser, so nothing
 * here may import server code.
 *
 * What each term picks, as item columns (for the compiler to Kysely, one query per dialect):
 *   today, tomorrow, yesterday, N days, due: D, due before: D, due after: D
 *                       a range over `due_at` (resolve.ts turns them into instants in the user's zone)
 *   overdue             `is_completed` false and `due_at` before now, or, when `all_day`, before
 *                       00:00 local today (an all-day item is overdue once its day has ended)
 *   no date             `due_at` is null
 *   recurring           `recurrence_rule` is not null
 *   no reminder         `remind_at` is null
 *   #Name, inbox        `project_id` = the project whose name matches as quick add matches
 *                       (`projectKey`: case and spaces ignored), `inbox` the `is_default` one;
 *                       with `wildcard`, every project whose key starts with the name's key
 *   @name               an `item_tags` row whose tag's `name_key` is the name lower-cased (or
 *                       starts with it, with `wildcard`)
 *   no tags             no `item_tags` row
 *   todos, notes        `type` 'todo' / 'note'
 *   subtasks            `parent_id` is not null
 *   done                `is_completed` true (archived or not)
 *   archived            `archived_at` is not null (status 'archived')
 *   all                 every item
 *   search: words       every word of `text` matches as `q` matches (search-words.ts)
 * When `openOnly` is true the whole query is also ANDed with "`is_completed` false and
 * `archived_at` null" (the contract's default when none of done, archived, all appears).
 * Names hold `%`, `_`, `'` and `\` literally: the compiler binds them as values and escapes them in
 * a LIKE pattern; they never reach SQL text.
 */

/** [start, end) in UTF-16 code units of the query as given, as JavaScript and the DOM count. */
export interface Span {
  start: number;
  end: number;
}

export type DayWord = 'today' | 'tomorrow' | 'yesterday';

export type DateTerm =
  | { kind: 'date'; date: DayWord | 'overdue' | 'no date'; span: Span }
  /** `N days` / `next N days`: today through the local date today + N − 1. */
  | { kind: 'date'; date: 'days'; days: number; span: Span }
  /** `due: D`, `due before: D`, `due after: D`: `phrase` is D as typed, read later in the user's zone. */
  | { kind: 'date'; date: 'due' | 'due before' | 'due after'; phrase: string; phraseSpan: Span; span: Span };

export type TypeWord = 'todos' | 'notes' | 'subtasks';
export type StateWord = 'done' | 'archived' | 'all';

export type Term =
  | DateTerm
  | { kind: 'recurring'; span: Span }
  | { kind: 'no reminder'; span: Span }
  /** `name` as written (no `#`, no quotes, no trailing `*`); `inbox` for the word `inbox` and `#Inbox`. */
  | { kind: 'project'; name: string; wildcard: boolean; inbox: boolean; span: Span }
  | { kind: 'tag'; name: string; wildcard: boolean; span: Span }
  | { kind: 'no tags'; span: Span }
  | { kind: 'type'; type: TypeWord; span: Span }
  | { kind: 'state'; state: StateWord; span: Span }
  /** `text` as typed after `search:`; the compiler splits it into words exactly as `q` is split. */
  | { kind: 'search'; text: string; span: Span };

/**
 * And and or are n-ary, so `a & b & … & z` is one flat node: a compiler walking the tree recurses
 * only as deep as the parentheses nest, which the parser bounds. `!!x` is read as `x`, so a `not`
 * never holds another `not`.
 */
export type Tree<T> = { kind: 'and'; operands: Tree<T>[] } | { kind: 'or'; operands: Tree<T>[] } | { kind: 'not'; operand: Tree<T>; span: Span } | T;

export type FilterNode = Tree<Term>;

export interface ParsedFilter {
  tree: FilterNode;
  /** None of done, archived, all appears anywhere: the query picks only open, unarchived items. */
  openOnly: boolean;
}

/** Why a query does not parse: `position` is where reading failed (UTF-16 offset), `message` in plain words. */
export interface FilterError {
  message: string;
  position: number;
}

export type ParseOutcome = { ok: true; filter: ParsedFilter } | { ok: false; error: FilterError };
