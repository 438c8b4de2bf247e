import { describe, expect, it } from 'vitest';
import { readQuickAdd, type GrammarContext } from '../../src/modules/quick-add/grammar.js';
import { literalRanges } from '../../src/web/literal-ranges.js';
import { shiftRanges } from '../../src/web/client/quick-add/shift-ranges.js';

// Thursday 2026-11-26, 10:00 in London.
const ctx: GrammarContext = { now: new Date('2026-11-26T10:00:00Z'), zone: 'Europe/London', projects: [{ id: 'p-work', name: 'Work' }] };

/*
 * A refused reading (decision 0098): the ranges the user kept as text are read as plain words,
 * stay in the title exactly as typed, and give no field; the rest of the line is read as before.
 */
describe('quick add with refused readings', () => {
  it('keeps a refused date as words in the title and sets no date', () => {
    const text = 'Watch Friday night lights';
    expect(readQuickAdd(text, ctx)).toMatchObject({ title: 'Watch lights', spans: [{ kind: 'date', start: 6, end: 18 }] });
    expect(readQuickAdd(text, { ...ctx, literal: [[6, 18]] })).toMatchObject({ title: 'Watch Friday night lights', due_at: null, all_day: false, spans: [] });
  });

  it('refuses only what it is told: the other readings stay, the refused words keep their place', () => {
    const text = 'Call mum tomorrow #Work @phone';
    const read = readQuickAdd(text, { ...ctx, literal: [[18, 23]] });
    expect(read).toMatchObject({ title: 'Call mum #Work', project_id: null, tags: ['phone'], due_at: '2026-11-27T00:00:00.000Z', all_day: true });
    expect(read.spans.map((s) => s.text)).toEqual(['tomorrow', '@phone']);
    expect(readQuickAdd(text, { ...ctx, literal: [[24, 30]] })).toMatchObject({ title: 'Call mum @phone', tags: [], project_id: 'p-work' });
  });

  it('keeps two refused ranges in order, merges touching ones, and ignores ranges outside the first line', () => {
    expect(
      readQuickAdd('Ask @anna about @bob today', {
        ...ctx,
        literal: [
          [4, 9],
          [16, 20],
        ],
      }),
    ).toMatchObject({ title: 'Ask @anna about @bob', tags: [] });
    expect(
      readQuickAdd('Pay @rent@home', {
        ...ctx,
        literal: [
          [4, 9],
          [9, 14],
        ],
      }),
    ).toMatchObject({ title: 'Pay @rent@home', tags: [] });
    expect(readQuickAdd('Buy milk today\nmore notes', { ...ctx, literal: [[20, 25]] })).toMatchObject({ title: 'Buy milk', content_md: 'more notes' });
  });

  it('reads the form field strictly: well-formed pairs only, start before end', () => {
    expect(literalRanges('6-18,25-30')).toEqual([
      [6, 18],
      [25, 30],
    ]);
    expect(literalRanges('')).toEqual([]);
    expect(literalRanges(undefined)).toEqual([]);
    expect(literalRanges('9-3,x-1,1-2-3,-4,5-')).toEqual([]);
    expect(literalRanges(' 1-2 ,3-4')).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});

describe('refused ranges follow the text as it is edited', () => {
  const r = (start: number, end: number) => ({ start, end });
  it('stay before an edit, move after it, and go when the edit touches or glues onto their words', () => {
    const before = 'Watch Friday night lights';
    expect(shiftRanges([r(6, 18)], before, `${before} now`)).toEqual([r(6, 18)]);
    expect(shiftRanges([r(6, 18)], before, `Go ${before}`)).toEqual([r(9, 21)]);
    expect(shiftRanges([r(6, 18)], before, 'Watch Friday nights lights')).toEqual([]);
    expect(shiftRanges([r(6, 18)], before, 'Watch Friday night  lights')).toEqual([r(6, 18)]);
    expect(shiftRanges([r(6, 18)], before, 'Watch Friday nigh lights')).toEqual([]);
    expect(shiftRanges([r(6, 18)], before, '')).toEqual([]);
    expect(shiftRanges([r(6, 18)], 'Watch Friday night', 'Watch Friday nights')).toEqual([]);
  });
});
