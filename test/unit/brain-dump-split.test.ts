import { describe, expect, it } from 'vitest';
import { readSplit } from '../../src/modules/quick-add/read-split.js';
import { splitLines, type SplitLine } from '../../src/modules/quick-add/split-lines.js';

type Row = [text: string, parent: number | null, done: boolean];
const rows = (lines: SplitLine[]): Row[] => lines.map((l) => [l.text, l.parent_index, l.is_completed]);

describe('brain dump: the deterministic split', () => {
  it.each<[string, string, Row[]]>([
    ['one line', 'buy milk', [['buy milk', null, false]]],
    [
      'lines, blank ones skipped',
      'buy milk\n\n  call mom  \r\nfix bike\r',
      [
        ['buy milk', null, false],
        ['call mom', null, false],
        ['fix bike', null, false],
      ],
    ],
    [
      'list markers removed',
      '- a\n* b\n• c\n1. d\n2) e\n10. f',
      [
        ['a', null, false],
        ['b', null, false],
        ['c', null, false],
        ['d', null, false],
        ['e', null, false],
        ['f', null, false],
      ],
    ],
    [
      'checkboxes, [x] done',
      '[ ] open\n[x] shut\n- [X] also shut\n- [ ] still open',
      [
        ['open', null, false],
        ['shut', null, true],
        ['also shut', null, true],
        ['still open', null, false],
      ],
    ],
    [
      'markers need a space after them',
      '-5 degrees\n1.5kg flour\n*bold*',
      [
        ['-5 degrees', null, false],
        ['1.5kg flour', null, false],
        ['*bold*', null, false],
      ],
    ],
    ['a marker alone is no item', '-\n- \n[ ]\nreal', [['real', null, false]]],
    [
      'a heading over bulleted lines',
      'Groceries:\n- milk\n- eggs\nafter',
      [
        ['Groceries', null, false],
        ['milk', 0, false],
        ['eggs', 0, false],
        ['after', null, false],
      ],
    ],
    [
      'a heading over indented lines',
      'Trip:\n  book hotel\n\tpack\nhome',
      [
        ['Trip', null, false],
        ['book hotel', 0, false],
        ['pack', 0, false],
        ['home', null, false],
      ],
    ],
    [
      'a bulleted heading needs deeper lines',
      '- Work:\n  - mail\n- Home:\n- rest',
      [
        ['Work', null, false],
        ['mail', 0, false],
        ['Home:', null, false],
        ['rest', null, false],
      ],
    ],
    [
      'an indented list ends at the margin',
      'Trip:\n  - pack\n- call mom',
      [
        ['Trip', null, false],
        ['pack', 0, false],
        ['call mom', null, false],
      ],
    ],
    [
      'headings nest',
      'Move:\n  Kitchen:\n    plates\n  boxes',
      [
        ['Move', null, false],
        ['Kitchen', 0, false],
        ['plates', 1, false],
        ['boxes', 0, false],
      ],
    ],
    [
      'a colon line with nothing under it keeps its colon',
      'Note to self:\nbuy milk',
      [
        ['Note to self:', null, false],
        ['buy milk', null, false],
      ],
    ],
    [
      'one line splits at "; "',
      'buy milk; call mom;fix bike;  ',
      [
        ['buy milk', null, false],
        ['call mom;fix bike', null, false],
      ],
    ],
    [
      'several lines never split at ";"',
      'a; b\nc',
      [
        ['a; b', null, false],
        ['c', null, false],
      ],
    ],
  ])('%s', (_name, text, expected) => {
    expect(rows(splitLines(text))).toEqual(expected);
  });

  it('answers where each text starts, in UTF-16 units of the whole text', () => {
    const text = '😀 one\n  - [x] two 😀\nthree';
    for (const line of splitLines(text)) expect(text.slice(line.start, line.start + line.text.length)).toBe(line.text);
    expect(splitLines(text).map((l) => l.start)).toEqual([0, 15, 22]);
  });
});

describe('brain dump: quick add on each item', () => {
  const ctx = {
    now: new Date('2026-11-18T19:30:00Z'),
    zone: 'UTC',
    projects: [
      { id: 'p-home', name: 'Home' },
      { id: 'p-work', name: 'Work' },
    ],
  };

  it("applies a heading's project and tags to the items under it, an item's own project first", () => {
    const items = readSplit('Weekend #Home @errand:\n- milk @shop\n- mail boss #Work\nlast', ctx);
    expect(items.map((i) => [i.title, i.project_id, i.tags, i.parent_index])).toEqual([
      ['Weekend', 'p-home', ['errand'], null],
      ['milk', 'p-home', ['errand', 'shop'], 0],
      ['mail boss', 'p-work', ['errand'], 0],
      ['last', null, [], null],
    ]);
  });

  it('counts span offsets over the whole text', () => {
    const text = 'intro\n- call @mom tomorrow';
    const [, second] = readSplit(text, ctx);
    for (const span of second!.spans) expect(text.slice(span.start, span.end)).toBe(span.text);
    expect(second!.spans.map((s) => s.kind)).toEqual(['tag', 'date']);
  });

  it('refuses more than 100 items, naming the limit', () => {
    expect(() => readSplit(Array.from({ length: 101 }, (_, i) => `item ${i}`).join('\n'), ctx)).toThrow(/at most 100 items/);
    expect(readSplit(Array.from({ length: 100 }, (_, i) => `item ${i}`).join('\n'), ctx)).toHaveLength(100);
  });
});
