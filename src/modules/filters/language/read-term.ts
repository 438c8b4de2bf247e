import type { DayWord, StateWord, Term, TypeWord } from './ast.js';
import { ENDS_NAME, type Cursor } from './cursor.js';
import { closestWord } from './suggest.js';

/** The contract's limits on names: a longer one can never match, so it is an error, not an empty answer. */
const PROJECT_NAME_MAX = 100;
const TAG_NAME_MAX = 50;
/** `N days` takes 1..MAX_DAYS: ten years is more than any plan, and keeps date arithmetic in range. */
const MAX_DAYS = 3650;

/** A keyword ends where a name would: at a space, an operator, a parenthesis, a comma or `!`. */
const END = String.raw`(?=$|[\s&|()!,])`;
const DAYS = new RegExp(String.raw`(?:next\s+)?(\d+)\s+days?${END}`, 'iuy');
const DUE = /due(?:\s+(before|after))?\s*:/iuy;
const SEARCH = /search\s*:/iuy;
const WORD = new RegExp(String.raw`(no\s+dates?|no\s+reminders?|no\s+(?:tags|labels)|view\s+all|[\p{L}]+)${END}`, 'iuy');

type Word =
  | { kind: 'date'; date: DayWord | 'overdue' | 'no date' }
  | { kind: 'recurring' }
  | { kind: 'no reminder' }
  | { kind: 'no tags' }
  | { kind: 'inbox' }
  | { kind: 'type'; type: TypeWord }
  | { kind: 'state'; state: StateWord };

/** The one-word (and two-word) terms, spaces between words folded to one. */
const WORDS: ReadonlyMap<string, Word> = new Map<string, Word>([
  ['today', { kind: 'date', date: 'today' }],
  ['tomorrow', { kind: 'date', date: 'tomorrow' }],
  ['yesterday', { kind: 'date', date: 'yesterday' }],
  ['overdue', { kind: 'date', date: 'overdue' }],
  ['no date', { kind: 'date', date: 'no date' }],
  ['no dates', { kind: 'date', date: 'no date' }],
  ['recurring', { kind: 'recurring' }],
  ['no reminder', { kind: 'no reminder' }],
  ['no reminders', { kind: 'no reminder' }],
  ['no tags', { kind: 'no tags' }],
  ['no labels', { kind: 'no tags' }],
  ['inbox', { kind: 'inbox' }],
  ['todos', { kind: 'type', type: 'todos' }],
  ['notes', { kind: 'type', type: 'notes' }],
  ['subtasks', { kind: 'type', type: 'subtasks' }],
  // Todoist's spelling, so `!subtask` carries over.
  ['subtask', { kind: 'type', type: 'subtasks' }],
  ['done', { kind: 'state', state: 'done' }],
  ['archived', { kind: 'state', state: 'archived' }],
  ['all', { kind: 'state', state: 'all' }],
  ['view all', { kind: 'state', state: 'all' }],
]);

/** Words a Todoist filter may hold that mean nothing here, with what to say instead of "unknown word". */
const NOT_HERE: readonly [RegExp, string][] = [
  [/^p[1-4]$/i, 'priorities (p1 to p4) are not part of this inbox'],
  [/^no$/i, 'expected date, reminder, tags or labels after no'],
  [/^(?:due|date)\b/i, 'expected "due:", "due before:" or "due after:" and a date'],
  [/^search$/i, 'expected "search:" and the words to look for'],
  [/^next$/i, 'expected a number of days after next, as in "next 7 days"'],
  [/^\d+$/, 'expected "days" after the number, as in "7 days"'],
  [/^(?:assigned|shared|created|deadline|priority|workspace)/i, 'this inbox has no such field to filter on'],
  [/^\//, 'sections (/name) are not part of this inbox; filter by #project or @tag'],
];

/** The keywords a typo is compared with: whole words only, multi-word terms are reached by their first word. */
const KEYWORDS = [...WORDS.keys()].filter((k) => !k.includes(' '));

const foldSpaces = (s: string): string => s.toLowerCase().replace(/\s+/gu, ' ');

/** `#name`, `#"Two words"`, `@name`, each optionally ending in `*`; the cursor is just past the sigil. */
function readName(c: Cursor, what: 'project' | 'tag', max: number): { name: string; wildcard: boolean } {
  const sigil = what === 'project' ? '#' : '@';
  const nameAt = c.pos;
  let name: string;
  let wildcard: boolean;
  if (c.peek() === '"') {
    const close = c.src.indexOf('"', c.pos + 1);
    if (close < 0) c.fail(`expected a closing " after the ${what} name`, c.src.length);
    name = c.src.slice(c.pos + 1, close).trim();
    if (name === '') c.fail(`expected a ${what} name between the quotes`, c.pos + 1);
    c.pos = close + 1;
    wildcard = c.peek() === '*';
    if (wildcard) c.pos += 1;
  } else {
    if (c.peek() === sigil && what === 'project') c.fail('## (a project with its subprojects) is not supported: projects here have no subprojects', nameAt - 1);
    name = c.runUntil();
    if (name === '') c.fail(`expected a ${what} name after ${sigil}`);
    c.pos += name.length;
    // Only a last `*` is the wildcard; one inside the name is a character of it.
    wildcard = name.endsWith('*');
    if (wildcard) name = name.slice(0, -1);
  }
  if (!c.atEnd && !ENDS_NAME.test(c.peek())) c.fail(`expected & or | after the ${what} name`);
  if (Array.from(name).length > max) c.fail(`a ${what} name has at most ${max} characters`, nameAt);
  return { name, wildcard };
}

/** One term at the cursor (whitespace already skipped), or a FilterSyntaxError naming what was expected. */
export function readTerm(c: Cursor): Term {
  const start = c.pos;
  const span = () => ({ start, end: c.pos });
  if (c.peek() === '#') {
    c.pos += 1;
    const { name, wildcard } = readName(c, 'project', PROJECT_NAME_MAX);
    return { kind: 'project', name, wildcard, inbox: !wildcard && foldSpaces(name).replace(/ /g, '') === 'inbox', span: span() };
  }
  if (c.peek() === '@') {
    c.pos += 1;
    return { kind: 'tag', ...readName(c, 'tag', TAG_NAME_MAX), span: span() };
  }
  const days = c.match(DAYS);
  if (days) {
    const n = Number(days[1]);
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_DAYS) c.fail(`expected a number of days from 1 to ${MAX_DAYS}`, start + days[0].indexOf(days[1]!));
    return { kind: 'date', date: 'days', days: n, span: span() };
  }
  const due = c.match(DUE);
  if (due) {
    const which = due[1]?.toLowerCase();
    const date = which === 'before' ? 'due before' : which === 'after' ? 'due after' : 'due';
    const text = c.readText();
    if (text.text === '') c.fail(`expected a date after ${date}:`, text.start);
    return { kind: 'date', date, phrase: text.text, phraseSpan: { start: text.start, end: text.end }, span: span() };
  }
  if (c.match(SEARCH)) {
    const text = c.readText();
    // Letters, marks and digits: what a word of `q` is made of (search-words.ts); anything else finds nothing.
    if (!/[\p{L}\p{M}\p{Nd}]/u.test(text.text)) c.fail('expected words to search for after search:', text.start);
    return { kind: 'search', text: text.text, span: span() };
  }
  const word = c.match(WORD);
  const known = word ? WORDS.get(foldSpaces(word[0])) : undefined;
  if (known?.kind === 'inbox') return { kind: 'project', name: 'Inbox', wildcard: false, inbox: true, span: span() };
  if (known) return { ...known, span: span() };
  c.pos = start;
  const unknown = c.runUntil();
  if (unknown === '') c.fail(c.atEnd ? 'expected a term' : `expected a term, found ${c.describeHere()}`);
  const hint = NOT_HERE.find(([re]) => re.test(unknown))?.[1];
  if (hint) c.fail(hint, start);
  const meant = closestWord(unknown, KEYWORDS);
  c.fail(
    meant ? `unknown word "${unknown}": did you mean ${meant}?` : `unknown word "${unknown}" (to look for it in titles and notes, write search: ${unknown})`,
    start,
  );
}
