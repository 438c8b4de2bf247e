import type { Seeded } from './seed.js';
import { WORDS } from './vocabulary.js';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  /** The next request's path and body; each call moves on to another item, word or batch. */
  next(): { path: string; body?: string };
  /** Distinct targets before next() starts over (a write then finds its change already made). */
  distinct?: number;
  /** After this many calls next() repeats itself; none when every request differs. */
  period?: number;
}

const API = '/api/v1';
export const BULK_SIZE = 100;

/** Words of mid frequency (each in roughly 2–9 % of items), as a person would search for them. */
export const ONE_WORD_QUERIES: string[][] = Array.from({ length: 20 }, (_, i) => [WORDS[30 + i * 5]!]);
/** A common word with a mid-frequency one (roughly 1–2 % of items have both), filtered to status todo. */
export const TWO_WORD_QUERIES: string[][] = Array.from({ length: 20 }, (_, i) => [WORDS[10 + i]!, WORDS[40 + i * 3]!]);

function cycle<T>(list: readonly T[]): () => T {
  if (list.length === 0) throw new Error('nothing to cycle through');
  let i = 0;
  return () => list[i++ % list.length]!;
}

const q = (words: readonly string[]) => encodeURIComponent(words.join(' '));

/**
 * The scenarios of the issue. Reads and writes touch different items: get reads the newest fifth
 * of the open items, toggle the next fifth, bulk archive takes batches of 100 from the rest, so one
 * write scenario does not turn a later one into no-ops. Capture runs last: its thousands of short,
 * untagged items would otherwise be the newest ones, and list would measure pages of those instead
 * of the seeded items with their tags.
 */
export function buildScenarios(seeded: Seeded): Scenario[] {
  const fifth = Math.floor(seeded.openIds.length / 5);
  const getId = cycle(seeded.openIds.slice(0, fifth));
  const toggleId = cycle(seeded.openIds.slice(fifth, 2 * fifth));
  const rest = seeded.openIds.slice(2 * fifth);
  const batches: string[][] = [];
  for (let i = 0; i + BULK_SIZE <= rest.length; i += BULK_SIZE) batches.push(rest.slice(i, i + BULK_SIZE));
  const batch = cycle(batches);
  const oneWord = cycle(ONE_WORD_QUERIES);
  const twoWords = cycle(TWO_WORD_QUERIES);
  let captured = 0;
  return [
    { name: 'list', method: 'GET', period: 1, next: () => ({ path: `${API}/items?limit=50` }) },
    { name: 'get', method: 'GET', period: fifth, next: () => ({ path: `${API}/items/${getId()}` }) },
    { name: 'toggle', method: 'POST', distinct: fifth, period: fifth, next: () => ({ path: `${API}/items/${toggleId()}/toggle` }) },
    { name: 'search_one_word', method: 'GET', period: ONE_WORD_QUERIES.length, next: () => ({ path: `${API}/items/search?q=${q(oneWord())}` }) },
    { name: 'search_two_words_status', method: 'GET', period: TWO_WORD_QUERIES.length, next: () => ({ path: `${API}/items/search?q=${q(twoWords())}&status=todo` }) },
    {
      name: 'bulk_archive_100',
      method: 'POST',
      distinct: batches.length,
      period: batches.length,
      next: () => ({ path: `${API}/items/bulk`, body: JSON.stringify({ op: 'archive', ids: batch() }) }),
    },
    {
      name: 'capture',
      method: 'POST',
      next: () => ({ path: `${API}/capture`, body: JSON.stringify({ text: `Bench capture ${(captured += 1)}\nfollow up with the team about the budget` }) }),
    },
  ];
}
