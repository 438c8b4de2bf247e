import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createProseSplitter, locatePieces, PROSE_SENT_MAX, type AskForPieces } from '../../src/modules/quick-add/split-prose.js';

const TEXT = 'Buy milk 🥛 tomorrow, call mom and buy milk again';

describe('locatePieces', () => {
  const rows = (text: string, pieces: string[]) => locatePieces(text, pieces)?.map((l) => [l.text, l.start, text.slice(l.start, l.start + l.text.length)]);

  it.each<[string, string[], Array<[string, number, string]> | null]>([
    [
      'verbatim pieces in order, UTF-16 offsets past an emoji',
      ['Buy milk 🥛 tomorrow', 'call mom'],
      [
        ['Buy milk 🥛 tomorrow', 0, 'Buy milk 🥛 tomorrow'],
        ['call mom', 22, 'call mom'],
      ],
    ],
    [
      'a repeated phrase maps to its next occurrence',
      ['Buy milk', 'buy milk again'],
      [
        ['Buy milk', 0, 'Buy milk'],
        ['buy milk again', 35, 'buy milk again'],
      ],
    ],
    [
      'pieces are trimmed before they are looked for',
      ['  call mom ', ' buy milk again'],
      [
        ['call mom', 22, 'call mom'],
        ['buy milk again', 35, 'buy milk again'],
      ],
    ],
    ['a piece not in the text', ['Buy oat milk', 'call mom'], null],
    ['pieces out of order', ['call mom', 'Buy milk'], null],
    ['overlapping pieces', ['Buy milk 🥛', 'milk 🥛 tomorrow'], null],
    ['an empty piece', ['Buy milk', ' '], null],
    ['a single piece (one item: nothing to split)', [TEXT], null],
    ['no pieces', [], null],
  ])('%s', (_name, pieces, expected) => {
    expect(rows(TEXT, pieces) ?? null).toEqual(expected);
  });

  it('takes 100 pieces and refuses 101', () => {
    const text = Array.from({ length: 101 }, (_, i) => `w${i}`).join(' ');
    const all = text.split(' ');
    expect(locatePieces(text, all.slice(0, 100))).toHaveLength(100);
    expect(locatePieces(text, all)).toBeNull();
    for (const line of locatePieces(text, all.slice(0, 100))!) expect([line.parent_index, line.is_completed]).toEqual([null, false]);
  });
});

describe('createProseSplitter', () => {
  function setup(answer: readonly string[] | null = ['Buy milk', 'call mom'], quotaLeft = Infinity) {
    const clock = new ManualClock();
    const asked: string[] = [];
    let left = quotaLeft;
    const ask: AskForPieces = async (text) => {
      asked.push(text);
      return answer;
    };
    const consumeAiRun = async () => {
      if (left <= 0) throw new Error('quota used up');
      left -= 1;
    };
    const splitter = createProseSplitter({ ask, consumeAiRun, clock, keepMs: 60_000, keepMax: 2 });
    return { clock, asked, splitter, quotaLeft: () => left };
  }

  it('keeps the split per user and text until keepMs has passed, counting one AI run per call', async () => {
    const s = setup(['Buy milk', 'call mom'], 10);
    const first = await s.splitter.splitProse('u1', TEXT);
    expect(first?.map((l) => l.text)).toEqual(['Buy milk', 'call mom']);
    s.clock.advance(59_999);
    expect(await s.splitter.splitProse('u1', TEXT)).toEqual(first);
    expect(s.asked).toHaveLength(1);
    await s.splitter.splitProse('u2', TEXT);
    expect(s.asked).toHaveLength(2);
    s.clock.advance(1);
    await s.splitter.splitProse('u1', TEXT);
    expect(s.asked).toHaveLength(3);
    expect(s.quotaLeft()).toBe(7);
  });

  it('keeps a failed or refused split too, so the batch stores one item as the preview showed', async () => {
    const s = setup(['not', 'in the text']);
    expect(await s.splitter.splitProse('u1', TEXT)).toBeNull();
    expect(await s.splitter.splitProse('u1', TEXT)).toBeNull();
    expect(s.asked).toHaveLength(1);
    const failing = setup(null);
    expect(await failing.splitter.splitProse('u1', TEXT)).toBeNull();
    expect(await failing.splitter.splitProse('u1', TEXT)).toBeNull();
    expect(failing.asked).toHaveLength(1);
  });

  it('asks no model when the quota is used up, and keeps nothing (the next day may ask)', async () => {
    const s = setup(['Buy milk', 'call mom'], 0);
    expect(await s.splitter.splitProse('u1', TEXT)).toBeNull();
    expect(s.asked).toHaveLength(0);
  });

  it('sends no prose longer than PROSE_SENT_MAX characters: it stays one item', async () => {
    const s = setup(['Buy milk', 'call mom']);
    const long = `Buy milk and call mom ${'x'.repeat(PROSE_SENT_MAX - 22)}`;
    expect(long).toHaveLength(PROSE_SENT_MAX);
    expect(await s.splitter.splitProse('u1', long)).not.toBeNull();
    expect(await s.splitter.splitProse('u1', `${long}y`)).toBeNull();
    expect(s.asked).toEqual([long]);
  });

  it('keeps at most keepMax splits, dropping the oldest', async () => {
    const s = setup();
    for (const user of ['u1', 'u2', 'u3']) await s.splitter.splitProse(user, TEXT);
    await s.splitter.splitProse('u3', TEXT);
    await s.splitter.splitProse('u2', TEXT);
    expect(s.asked).toHaveLength(3);
    await s.splitter.splitProse('u1', TEXT);
    expect(s.asked).toEqual([TEXT, TEXT, TEXT, TEXT]);
  });
});
