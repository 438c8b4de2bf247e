import { describe, expect, it } from 'vitest';
import type { FilterError } from '../../src/modules/filters/language/ast.js';
import { parseFilter } from '../../src/modules/filters/language/parse.js';
import { resolveFilter, type DateReading, type FilterPlan, type PlanNode, type ResolveContext } from '../../src/modules/filters/language/resolve.js';

/** A date reader of fixed answers: this file tests the ranges, not the reading (filter-date-reading.test.ts does). */
const READINGS: Record<string, DateReading> = {
  'dec 24': { kind: 'day', day: { year: 2026, month: 12, day: 24 } },
  'mar 29': { kind: 'day', day: { year: 2026, month: 3, day: 29 } },
  'nov 1': { kind: 'day', day: { year: 2026, month: 11, day: 1 } },
  'dec 24 5pm': { kind: 'instant', at: new Date('2026-12-24T16:00:00.000Z') },
};

const context = (now: string, timezone: string): ResolveContext => ({ now: new Date(now), timezone, readDate: (phrase) => READINGS[phrase] ?? null });

function plan(query: string, ctx: ResolveContext): FilterPlan {
  const parsed = parseFilter(query);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const resolved = resolveFilter(parsed.filter, ctx);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.plan;
}

function failure(query: string, ctx: ResolveContext): FilterError {
  const parsed = parseFilter(query);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const resolved = resolveFilter(parsed.filter, ctx);
  if (resolved.ok) throw new Error(`${query} resolved`);
  return resolved.error;
}

/** The bounds of a one-term plan as ISO strings, null where open. */
function bounds(node: PlanNode): { gte: string | null; gt: string | null; lt: string | null } {
  if (node.kind !== 'due') throw new Error(`not a due range: ${node.kind}`);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return { gte: iso(node.gte), gt: iso(node.gt), lt: iso(node.lt) };
}

const range = (gte: string | null, lt: string | null, gt: string | null = null) => ({ gte, gt, lt });

describe('resolveFilter: day words are whole local days, however long DST makes them', () => {
  it.each<[string, string, string, ReturnType<typeof range>]>([
    // Berlin, winter: 00:00 local is 23:00 UTC the day before.
    ['Europe/Berlin', '2026-11-29T10:00:00.000Z', 'today', range('2026-11-28T23:00:00.000Z', '2026-11-29T23:00:00.000Z')],
    ['Europe/Berlin', '2026-11-29T10:00:00.000Z', 'tomorrow', range('2026-11-29T23:00:00.000Z', '2026-11-30T23:00:00.000Z')],
    ['Europe/Berlin', '2026-11-29T10:00:00.000Z', 'yesterday', range('2026-11-27T23:00:00.000Z', '2026-11-28T23:00:00.000Z')],
    // Just before local midnight it is still today in Berlin, though tomorrow is near in UTC terms.
    ['Europe/Berlin', '2026-11-29T22:59:00.000Z', 'today', range('2026-11-28T23:00:00.000Z', '2026-11-29T23:00:00.000Z')],
    ['Europe/Berlin', '2026-11-29T23:00:00.000Z', 'today', range('2026-11-29T23:00:00.000Z', '2026-11-30T23:00:00.000Z')],
    // Spring forward (29 March 2026): a day of 23 hours.
    ['Europe/Berlin', '2026-03-29T10:00:00.000Z', 'today', range('2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z')],
    ['Europe/Berlin', '2026-03-28T10:00:00.000Z', 'tomorrow', range('2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z')],
    // Fall back (25 October 2026): a day of 25 hours.
    ['Europe/Berlin', '2026-10-25T12:00:00.000Z', 'today', range('2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z')],
    ['Europe/Berlin', '2026-10-26T12:00:00.000Z', 'yesterday', range('2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z')],
    // New York: 8 March and 1 November 2026.
    ['America/New_York', '2026-03-08T15:00:00.000Z', 'today', range('2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z')],
    ['America/New_York', '2026-11-01T15:00:00.000Z', 'today', range('2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z')],
    // 02:00 UTC on 2 November is still 1 November in New York.
    ['America/New_York', '2026-11-02T02:00:00.000Z', 'today', range('2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z')],
    ['America/New_York', '2026-11-02T02:00:00.000Z', 'tomorrow', range('2026-11-02T05:00:00.000Z', '2026-11-03T05:00:00.000Z')],
    // Santiago skips midnight (6 September 2026 starts at 01:00 local): the day starts at its first instant.
    ['America/Santiago', '2026-09-06T15:00:00.000Z', 'today', range('2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z')],
    ['UTC', '2026-11-29T10:00:00.000Z', 'today', range('2026-11-29T00:00:00.000Z', '2026-11-30T00:00:00.000Z')],
  ])('%s at %s: %s', (zone, now, query, expected) => {
    expect(bounds(plan(query, context(now, zone)).tree)).toEqual(expected);
  });
});

describe('resolveFilter: N days is today 00:00 through the end of today + N − 1', () => {
  it.each<[string, string, string, ReturnType<typeof range>]>([
    ['Europe/Berlin', '2026-11-29T10:00:00.000Z', '1 day', range('2026-11-28T23:00:00.000Z', '2026-11-29T23:00:00.000Z')],
    ['Europe/Berlin', '2026-11-29T10:00:00.000Z', '7 days', range('2026-11-28T23:00:00.000Z', '2026-12-05T23:00:00.000Z')],
    ['Europe/Berlin', '2026-11-29T10:00:00.000Z', 'next 7 days', range('2026-11-28T23:00:00.000Z', '2026-12-05T23:00:00.000Z')],
    // Across spring forward: starts at +01:00, ends at +02:00.
    ['Europe/Berlin', '2026-03-27T10:00:00.000Z', '7 days', range('2026-03-26T23:00:00.000Z', '2026-04-02T22:00:00.000Z')],
    ['America/New_York', '2026-10-30T15:00:00.000Z', '3 days', range('2026-10-30T04:00:00.000Z', '2026-11-02T05:00:00.000Z')],
    ['UTC', '2026-11-29T10:00:00.000Z', '3650 days', range('2026-11-29T00:00:00.000Z', '2036-11-26T00:00:00.000Z')],
  ])('%s at %s: %s', (zone, now, query, expected) => {
    // Starting at 00:00 today: a timed item due earlier today is in; yesterday's and older are out.
    expect(bounds(plan(query, context(now, zone)).tree)).toEqual(expected);
  });
});

describe('resolveFilter: due: D, due before: D, due after: D', () => {
  const berlin = context('2026-11-29T10:00:00.000Z', 'Europe/Berlin');
  it.each<[string, ReturnType<typeof range>]>([
    // A day: due on it, before it starts, after it ends.
    ['due: dec 24', range('2026-12-23T23:00:00.000Z', '2026-12-24T23:00:00.000Z')],
    ['due before: dec 24', range(null, '2026-12-23T23:00:00.000Z')],
    ['due after: dec 24', range('2026-12-24T23:00:00.000Z', null)],
    // A day on which DST changes is still the whole local day.
    ['due: mar 29', range('2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z')],
    ['due after: mar 29', range('2026-03-29T22:00:00.000Z', null)],
    // An instant: that minute, strictly before or strictly after it.
    ['due: dec 24 5pm', range('2026-12-24T16:00:00.000Z', '2026-12-24T16:01:00.000Z')],
    ['due before: dec 24 5pm', range(null, '2026-12-24T16:00:00.000Z')],
    ['due after: dec 24 5pm', range(null, null, '2026-12-24T16:00:00.000Z')],
  ])('%s', (query, expected) => {
    expect(bounds(plan(query, berlin).tree)).toEqual(expected);
  });

  it('reads a day in the zone it is given: the same day starts at another instant in New York', () => {
    expect(bounds(plan('due: nov 1', context('2026-11-29T10:00:00.000Z', 'America/New_York')).tree)).toEqual(
      range('2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z'),
    );
  });

  it('refuses a phrase that is not a date, at the position where the phrase starts', () => {
    expect(failure('today | due before:  blah blah', berlin)).toEqual({ message: 'cannot read "blah blah" as a date', position: 21 });
    expect(failure('(due: dec 24) & due after: soon', berlin)).toEqual({ message: 'cannot read "soon" as a date', position: 27 });
  });
});

describe('resolveFilter: the other terms', () => {
  const ctx = context('2026-11-29T10:00:00.000Z', 'Europe/Berlin');

  it('overdue: timed items before now, all-day items before 00:00 local today', () => {
    expect(plan('overdue', ctx).tree).toEqual({
      kind: 'overdue',
      timedBefore: new Date('2026-11-29T10:00:00.000Z'),
      allDayBefore: new Date('2026-11-28T23:00:00.000Z'),
      span: { start: 0, end: 7 },
    });
  });

  it('keeps no date and every term without a date as parsed, in the same tree', () => {
    const { tree, openOnly } = plan('!(no date | #Work*) & (@"a b" | search: milk) & recurring & no reminder & no tags & subtasks', ctx);
    expect(openOnly).toBe(true);
    expect(tree).toEqual({
      kind: 'and',
      operands: [
        {
          kind: 'not',
          span: { start: 0, end: 1 },
          operand: {
            kind: 'or',
            operands: [
              { kind: 'no date', span: { start: 2, end: 9 } },
              { kind: 'project', name: 'Work', wildcard: true, inbox: false, span: { start: 12, end: 18 } },
            ],
          },
        },
        {
          kind: 'or',
          operands: [
            { kind: 'tag', name: 'a b', wildcard: false, span: { start: 23, end: 29 } },
            { kind: 'search', text: 'milk', span: { start: 32, end: 44 } },
          ],
        },
        { kind: 'recurring', span: { start: 48, end: 57 } },
        { kind: 'no reminder', span: { start: 60, end: 71 } },
        { kind: 'no tags', span: { start: 74, end: 81 } },
        { kind: 'type', type: 'subtasks', span: { start: 84, end: 92 } },
      ],
    });
  });

  it('carries openOnly through', () => {
    expect(plan('done & today', ctx).openOnly).toBe(false);
  });
});
