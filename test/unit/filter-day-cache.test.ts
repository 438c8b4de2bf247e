import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../src/modules/filters/language/parse.js';
import { resolveFilter } from '../../src/modules/filters/language/resolve.js';
import { addDays, instantOf, wallTimeAt } from '../../src/lib/dates/zoned-time.js';

/*
 * resolve.ts keeps each zone's current day and day starts (decision 0094). Walking the clock forward
 * through days with DST changes, `today` must be what reading the wall clock afresh says: a cached
 * day that outlived its end, or one kept across a change of offset, fails here.
 */

const HOUR_MS = 3_600_000;
const parsed = parseFilter('today');
if (!parsed.ok) throw new Error(parsed.error.message);
const today = parsed.filter;

function todayBounds(now: Date, zone: string): [string, string] {
  const resolved = resolveFilter(today, { now, timezone: zone, readDate: () => null });
  if (!resolved.ok || resolved.plan.tree.kind !== 'due') throw new Error('today did not resolve to a range');
  return [resolved.plan.tree.gte!.toISOString(), resolved.plan.tree.lt!.toISOString()];
}

/** The same bounds from the wall clock, nothing kept. */
function freshBounds(now: Date, zone: string): [string, string] {
  const wall = { ...wallTimeAt(zone, now), hour: 0, minute: 0 };
  return [instantOf(zone, wall).toISOString(), instantOf(zone, addDays(wall, 1)).toISOString()];
}

describe("today's cached day in a zone", () => {
  // Spring and autumn changes; São Paulo's of 2018–19 happened at midnight (a day without 00:00, and an hour repeated across midnight).
  const walks: [string, string][] = [
    ['Europe/Berlin', '2026-03-27T00:00:00Z'],
    ['Europe/Berlin', '2026-10-23T00:00:00Z'],
    ['America/New_York', '2026-10-30T20:00:00Z'],
    ['America/Sao_Paulo', '2018-11-02T00:00:00Z'],
    ['America/Sao_Paulo', '2019-02-15T00:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-03T00:00:00Z'],
    ['Asia/Kathmandu', '2026-06-01T00:00:00Z'],
  ];

  it.each(walks)('%s from %s, every 20 minutes for four days', (zone, from) => {
    const start = new Date(from).getTime();
    for (let t = start; t < start + 96 * HOUR_MS; t += HOUR_MS / 3) {
      const now = new Date(t);
      expect(todayBounds(now, zone), now.toISOString()).toEqual(freshBounds(now, zone));
    }
  });

  it('follows the clock back as well as forward', () => {
    const zone = 'Europe/Berlin';
    for (const at of ['2026-11-29T12:00:00Z', '2026-11-28T12:00:00Z', '2026-11-29T23:30:00Z', '2026-11-28T22:59:59.999Z', '2026-11-28T23:00:00Z']) {
      expect(todayBounds(new Date(at), zone), at).toEqual(freshBounds(new Date(at), zone));
    }
  });
});
