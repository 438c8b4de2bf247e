import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FilterError, FilterNode, ParsedFilter } from '../../src/modules/filters/language/ast.js';
import { MAX_DEPTH, MAX_QUERY_LENGTH, MAX_TERMS, parseFilter } from '../../src/modules/filters/language/parse.js';

/** The tree without spans, so a table row reads like the query. */
function shape(node: FilterNode): unknown {
  if (node.kind === 'and' || node.kind === 'or') return { [node.kind]: node.operands.map(shape) };
  if (node.kind === 'not') return { not: shape(node.operand) };
  const { span: _span, ...rest } = node;
  if ('phraseSpan' in rest) {
    const { phraseSpan: _phraseSpan, ...term } = rest;
    return term;
  }
  return rest;
}

function parsed(query: string): ParsedFilter {
  const outcome = parseFilter(query);
  if (!outcome.ok) throw new Error(`${query}: ${outcome.error.message} at ${outcome.error.position}`);
  return outcome.filter;
}

function failure(query: string): FilterError {
  const outcome = parseFilter(query);
  if (outcome.ok) throw new Error(`${query} parsed: ${JSON.stringify(outcome.filter)}`);
  return outcome.error;
}

const today = { kind: 'date', date: 'today' };
const overdue = { kind: 'date', date: 'overdue' };
const project = (name: string, wildcard = false, inbox = false) => ({ kind: 'project', name, wildcard, inbox });
const tag = (name: string, wildcard = false) => ({ kind: 'tag', name, wildcard });

describe('parseFilter: every term', () => {
  it.each<[string, unknown]>([
    ['today', today],
    ['Tomorrow', { kind: 'date', date: 'tomorrow' }],
    ['YESTERDAY', { kind: 'date', date: 'yesterday' }],
    ['overdue', overdue],
    ['no date', { kind: 'date', date: 'no date' }],
    ['No  Dates', { kind: 'date', date: 'no date' }],
    ['7 days', { kind: 'date', date: 'days', days: 7 }],
    ['next 7 days', { kind: 'date', date: 'days', days: 7 }],
    ['1 day', { kind: 'date', date: 'days', days: 1 }],
    ['due: friday', { kind: 'date', date: 'due', phrase: 'friday' }],
    ['due:dec 24 5pm', { kind: 'date', date: 'due', phrase: 'dec 24 5pm' }],
    ['Due Before: +3 days', { kind: 'date', date: 'due before', phrase: '+3 days' }],
    ['due after : -1 week', { kind: 'date', date: 'due after', phrase: '-1 week' }],
    ['recurring', { kind: 'recurring' }],
    ['no reminder', { kind: 'no reminder' }],
    ['no reminders', { kind: 'no reminder' }],
    ['#Work', project('Work')],
    ['#"Side project"', project('Side project')],
    ['#"  Side project "', project('Side project')],
    ['#Work*', project('Work', true)],
    ['#"Side p"*', project('Side p', true)],
    ['#*', project('', true)],
    ['#Inbox', project('Inbox', false, true)],
    ['#"in box"', project('in box', false, true)],
    ['inbox', project('Inbox', false, true)],
    ['#Inbox*', project('Inbox', true, false)],
    ['@home', tag('home')],
    ['@home*', tag('home', true)],
    ['@"two words"', tag('two words')],
    ['no tags', { kind: 'no tags' }],
    ['no labels', { kind: 'no tags' }],
    ['todos', { kind: 'type', type: 'todos' }],
    ['notes', { kind: 'type', type: 'notes' }],
    ['subtasks', { kind: 'type', type: 'subtasks' }],
    ['subtask', { kind: 'type', type: 'subtasks' }],
    ['done', { kind: 'state', state: 'done' }],
    ['archived', { kind: 'state', state: 'archived' }],
    ['all', { kind: 'state', state: 'all' }],
    ['view all', { kind: 'state', state: 'all' }],
    ['search: milk and eggs', { kind: 'search', text: 'milk and eggs' }],
    ['SEARCH:milk', { kind: 'search', text: 'milk' }],
  ])('%s', (query, expected) => {
    expect(shape(parsed(query).tree)).toEqual(expected);
  });
});

describe('parseFilter: names and words keep every character literally', () => {
  it.each<[string, unknown]>([
    ['#50%_off', project('50%_off')],
    ["#it's", project("it's")],
    ['#back\\slash', project('back\\slash')],
    ['#"a & b | (c)"', project('a & b | (c)')],
    ['#a*b', project('a*b')],
    ['#"a*"', project('a*')],
    ['#"a*"*', project('a*', true)],
    ['#Urgent!', project('Urgent!')],
    ['@%_', tag('%_')],
    ["@o'clock", tag("o'clock")],
    ['@\\', tag('\\')],
    ['@a"b', tag('a"b')],
    ["search: 100%_ o'clock \\ x", { kind: 'search', text: "100%_ o'clock \\ x" }],
    ["search: ' OR 1=1 --", { kind: 'search', text: "' OR 1=1 --" }],
  ])('%s', (query, expected) => {
    expect(shape(parsed(query).tree)).toEqual(expected);
  });
});

describe('parseFilter: operators', () => {
  it.each<[string, unknown]>([
    ['today & #Work', { and: [today, project('Work')] }],
    ['today&#Work', { and: [today, project('Work')] }],
    ['today | overdue', { or: [today, overdue] }],
    // & binds tighter than |.
    ['today | overdue & #Work', { or: [today, { and: [overdue, project('Work')] }] }],
    ['today & overdue | #Work', { or: [{ and: [today, overdue] }, project('Work')] }],
    ['(today | overdue) & #Work', { and: [{ or: [today, overdue] }, project('Work')] }],
    ['!today', { not: today }],
    ['! today', { not: today }],
    ['!!today', today],
    ['!!!today', { not: today }],
    ['!(today | overdue)', { not: { or: [today, overdue] } }],
    ['!(!today)', today],
    ['!today & !overdue', { and: [{ not: today }, { not: overdue }] }],
    // Flattened: a chain is one node, whatever the parentheses.
    ['today & (overdue & #Work) & @a', { and: [today, overdue, project('Work'), tag('a')] }],
    ['((today))', today],
    ['#Work&@home|@office', { or: [{ and: [project('Work'), tag('home')] }, tag('office')] }],
    ['due before: friday & #Work', { and: [{ kind: 'date', date: 'due before', phrase: 'friday' }, project('Work')] }],
    ['(due: friday)', { kind: 'date', date: 'due', phrase: 'friday' }],
    [
      'search: milk | search: eggs',
      {
        or: [
          { kind: 'search', text: 'milk' },
          { kind: 'search', text: 'eggs' },
        ],
      },
    ],
  ])('%s', (query, expected) => {
    expect(shape(parsed(query).tree)).toEqual(expected);
  });
});

describe('parseFilter: open items by default', () => {
  it.each<[string, boolean]>([
    ['today', true],
    ['todos & #Work', true],
    ['done', false],
    ['!done', false],
    ['archived | today', false],
    ['today & (all)', false],
    ['view all', false],
  ])('%s → openOnly %s', (query, openOnly) => {
    expect(parsed(query).openOnly).toBe(openOnly);
  });
});

describe('parseFilter: spans are UTF-16 offsets into the query', () => {
  it('marks each term, the phrase of a due term and a not', () => {
    expect(failure('today & 😀')).toMatchObject({ message: 'unknown word "😀" (to look for it in titles and notes, write search: 😀)', position: 8 });
    expect(parsed('#"Ünïcödé 😀" & due:  fri ').tree).toEqual({
      kind: 'and',
      operands: [
        { kind: 'project', name: 'Ünïcödé 😀', wildcard: false, inbox: false, span: { start: 0, end: 13 } },
        { kind: 'date', date: 'due', phrase: 'fri', phraseSpan: { start: 22, end: 25 }, span: { start: 16, end: 25 } },
      ],
    });
    expect(parsed('!today').tree).toEqual({ kind: 'not', operand: { kind: 'date', date: 'today', span: { start: 1, end: 6 } }, span: { start: 0, end: 1 } });
    // After an astral character the offset counts two code units, as the DOM does.
    expect(failure('#"😀" tody')).toEqual({ message: 'expected & or | before "tody"', position: 6 });
  });
});

describe('parseFilter: errors name the position and what was expected', () => {
  it.each<[string, number, string]>([
    ['', 0, 'the filter is empty'],
    ['   ', 3, 'the filter is empty'],
    ['#', 1, 'expected a project name after #'],
    ['# Work', 1, 'expected a project name after #'],
    ['today & #', 9, 'expected a project name after #'],
    ['@', 1, 'expected a tag name after @'],
    ['#""', 2, 'expected a project name between the quotes'],
    ['#"Side project', 14, 'expected a closing " after the project name'],
    ['#"a"b', 4, 'expected & or | after the project name'],
    ['#Side project', 6, 'expected & or | before "project" (a name with spaces goes in quotes: #"Side project")'],
    ['##Work', 0, 'not supported'],
    ['(today', 6, 'expected ) to close the ('],
    ['((today) | overdue', 18, 'expected ) to close the ('],
    ['today)', 5, 'found ) without a ( before it'],
    ['()', 1, 'expected a term inside the parentheses'],
    ['today tomorrow', 6, 'expected & or | before "tomorrow"'],
    ['(today tomorrow)', 7, 'expected & or | before "tomorrow"'],
    ['today &', 7, 'expected a term after &'],
    ['today & | overdue', 8, 'expected a term after &, found "|"'],
    ['today |', 7, 'expected a term after |'],
    ['& today', 0, 'expected a term, found "&"'],
    ['!', 1, 'expected a term after !'],
    ['today & !', 9, 'expected a term after !'],
    ['today, overdue', 5, 'a comma does not join terms here'],
    ['tody', 0, 'unknown word "tody": did you mean today?'],
    ['Tomorow', 0, 'unknown word "Tomorow": did you mean tomorrow?'],
    ['overdeu', 0, 'did you mean overdue?'],
    ['today & todo', 8, 'did you mean todos?'],
    ['today & milk', 8, 'unknown word "milk" (to look for it in titles and notes, write search: milk)'],
    [`${'x'.repeat(900)}`, 0, 'write search:'],
    ["today's", 0, 'unknown word'],
    ['todayx', 0, 'unknown word "todayx"'],
    ['p1', 0, 'priorities (p1 to p4)'],
    ['assigned to: me', 0, 'no such field'],
    ['shared', 0, 'no such field'],
    ['created: today', 0, 'no such field'],
    ['/Meetings', 0, 'sections'],
    ['no', 0, 'expected date, reminder, tags or labels after no'],
    ['no time', 0, 'expected date, reminder, tags or labels after no'],
    ['due friday', 0, 'expected "due:"'],
    ['date: friday', 0, 'expected "due:"'],
    ['search milk', 0, 'expected "search:"'],
    ['next days', 0, 'expected a number of days after next'],
    ['7', 0, 'expected "days" after the number'],
    ['0 days', 0, 'expected a number of days from 1 to 3650'],
    ['next 3651 days', 5, 'expected a number of days from 1 to 3650'],
    ['99999999999999999999999 days', 0, 'expected a number of days'],
    ['due:', 4, 'expected a date after due:'],
    ['due before:   & today', 14, 'expected a date after due before:'],
    ['search:', 7, 'expected words to search for after search:'],
    ["search: %_\\'", 8, 'expected words to search for after search:'],
  ])('%j fails at %i', (query, position, message) => {
    const error = failure(query);
    expect(error.message).toContain(message);
    expect(error.position).toBe(position);
  });
});

describe('the parser bundles for the browser', () => {
  it('imports nothing outside its folder (the web filter box uses the same module)', async () => {
    const { build } = await import('esbuild');
    const folder = resolve(import.meta.dirname, '../../src/modules/filters/language');
    const result = await build({
      entryPoints: [join(folder, 'parse.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(input));
    expect(inputs.length).toBeGreaterThan(1);
    expect(inputs.filter((input) => dirname(input) !== folder)).toEqual([]);
  });
});

describe('parseFilter: limits', () => {
  it('takes a query of exactly 1,000 characters and refuses one more', () => {
    const name = 'x'.repeat(MAX_QUERY_LENGTH - 'search: '.length);
    expect(parsed(`search: ${name}`).tree).toMatchObject({ kind: 'search' });
    expect(failure(`search: ${name}y`)).toEqual({ message: 'a filter has at most 1000 characters', position: 1000 });
  });

  it('takes 100 terms and refuses the 101st at its position', () => {
    const hundred = Array.from({ length: MAX_TERMS }, (_, i) => `@t${i}`).join('|');
    expect((parsed(hundred).tree as { operands: unknown[] }).operands).toHaveLength(MAX_TERMS);
    expect(failure(`${hundred}|@x`)).toEqual({ message: 'a filter has at most 100 terms', position: hundred.length + 1 });
  });

  it('refuses 1,000 terms by length, quickly', () => {
    const started = performance.now();
    expect(failure(Array.from({ length: 1000 }, () => 'today').join(' & ')).position).toBe(MAX_QUERY_LENGTH);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('takes parentheses 20 deep and refuses the 21st at its position', () => {
    expect(shape(parsed(`${'('.repeat(MAX_DEPTH)}today${')'.repeat(MAX_DEPTH)}`).tree)).toEqual(today);
    expect(failure(`${'('.repeat(500)}today${')'.repeat(495)}`)).toEqual({ message: 'parentheses nest at most 20 deep', position: MAX_DEPTH });
    expect(failure('('.repeat(500)).position).toBe(MAX_DEPTH);
  });

  it('reads any number of ! without recursion: an even count cancels out', () => {
    expect(shape(parsed(`${'!'.repeat(994)}today`).tree)).toEqual(today);
    expect(shape(parsed(`${'!'.repeat(995)}today`).tree)).toEqual({ not: today });
    expect(shape(parsed(`${'! '.repeat(497)}today`).tree)).toEqual({ not: today });
    expect(failure('!'.repeat(1000))).toEqual({ message: 'expected a term after !', position: 1000 });
  });

  it('refuses a project name over 100 characters and a tag name over 50, where the name starts', () => {
    expect(shape(parsed(`#${'p'.repeat(100)}`).tree)).toEqual(project('p'.repeat(100)));
    expect(failure(`today & #${'p'.repeat(1000)}`)).toEqual({ message: 'a filter has at most 1000 characters', position: 1000 });
    expect(failure(`today & #${'p'.repeat(101)}`)).toEqual({ message: 'a project name has at most 100 characters', position: 9 });
    expect(failure(`#"${'p'.repeat(101)}"*`)).toEqual({ message: 'a project name has at most 100 characters', position: 1 });
    expect(shape(parsed(`@${'😀'.repeat(50)}`).tree)).toEqual(tag('😀'.repeat(50)));
    expect(failure(`@${'t'.repeat(51)}`)).toEqual({ message: 'a tag name has at most 50 characters', position: 1 });
  });

  it('never throws: every input of 1,000 characters of operator soup answers in time', () => {
    const alphabet = ['(', ')', '!', '&', '|', '#', '@', '"', '*', ' ', 'today', ':', 'due:', '%', '\\', ','];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const started = performance.now();
    for (let n = 0; n < 200; n += 1) {
      let query = '';
      while (query.length < 1000) query += alphabet[next() % alphabet.length];
      const outcome = parseFilter(query.slice(0, 1000));
      if (!outcome.ok) expect(outcome.error.position).toBeGreaterThanOrEqual(0);
      if (!outcome.ok) expect(outcome.error.position).toBeLessThanOrEqual(1000);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
