import { describe, expect, it } from 'vitest';
import type { DateReading } from '../../src/modules/filters/language/resolve.js';
import { readFilterDate } from '../../src/modules/filters/read-filter-date.js';

// Sunday 29 November 2026, 11:00 in Berlin, 05:00 in New York.
const NOW = new Date('2026-11-29T10:00:00.000Z');
const day = (year: number, month: number, d: number): DateReading => ({ kind: 'day', day: { year, month, day: d } });
const at = (iso: string): DateReading => ({ kind: 'instant', at: new Date(iso) });

describe('readFilterDate: the D of due: D, read as quick add reads it', () => {
  it.each<[string, string, DateReading | null]>([
    // Without a time of day: a local day (contract "All-day dates").
    ['Europe/Berlin', 'friday', day(2026, 12, 4)],
    ['Europe/Berlin', 'on friday', day(2026, 12, 4)],
    // A bare weekday keeps the organizer's reading: its next occurrence, never today.
    ['Europe/Berlin', 'sunday', day(2026, 12, 6)],
    ['Europe/Berlin', 'today', day(2026, 11, 29)],
    ['Europe/Berlin', 'tmrw', day(2026, 11, 30)],
    ['Europe/Berlin', 'dec 24', day(2026, 12, 24)],
    ['Europe/Berlin', '2026-12-24', day(2026, 12, 24)],
    ['Europe/Berlin', '+3 days', day(2026, 12, 2)],
    ['Europe/Berlin', 'in 3 days', day(2026, 12, 2)],
    ['Europe/Berlin', 'next week', day(2026, 11, 30)],
    // Day first outside the Americas, month first in them.
    ['Europe/Berlin', '12/3', day(2027, 3, 12)],
    ['America/New_York', '12/3', day(2026, 12, 3)],
    // The past, which quick add refuses as a deadline and a filter needs.
    ['Europe/Berlin', '-1 week', day(2026, 11, 22)],
    ['Europe/Berlin', 'yesterday', day(2026, 11, 28)],
    ['Europe/Berlin', '3 days ago', day(2026, 11, 26)],
    ['Europe/Berlin', 'last friday', day(2026, 11, 27)],
    ['Europe/Berlin', '2026-11-01', day(2026, 11, 1)],
    // With a time: an instant, by the organizer's readings of tonight (20:00), eod (17:00), morning (09:00).
    ['Europe/Berlin', 'tomorrow 5pm', at('2026-11-30T16:00:00.000Z')],
    ['America/New_York', 'tomorrow 5pm', at('2026-11-30T22:00:00.000Z')],
    ['Europe/Berlin', 'friday 5pm', at('2026-12-04T16:00:00.000Z')],
    ['Europe/Berlin', 'tonight', at('2026-11-29T19:00:00.000Z')],
    ['Europe/Berlin', 'eod', at('2026-11-29T16:00:00.000Z')],
    ['Europe/Berlin', 'tomorrow morning', at('2026-11-30T08:00:00.000Z')],
    ['Europe/Berlin', 'today 8am', at('2026-11-29T07:00:00.000Z')],
    ['Europe/Berlin', '+4 hours', at('2026-11-29T14:00:00.000Z')],
    ['Europe/Berlin', '-2 hours', at('2026-11-29T08:00:00.000Z')],
    ['Europe/Berlin', 'now', at('2026-11-29T10:00:00.000Z')],
    ['Europe/Berlin', 'yesterday 5pm', at('2026-11-28T16:00:00.000Z')],
    // An instant with an offset is that instant, whatever the user's zone.
    ['America/New_York', '2026-12-24T17:00:00Z', at('2026-12-24T17:00:00.000Z')],
    ['Europe/Berlin', '2026-12-24T17:00+05:00', at('2026-12-24T12:00:00.000Z')],
    // Not (only) a date.
    ['Europe/Berlin', 'friday blah', null],
    ['Europe/Berlin', 'blah', null],
    ['Europe/Berlin', 'may', null],
    ['Europe/Berlin', '%_\\', null],
    ['Europe/Berlin', '2026-13-45T10:00Z', null],
  ])('%s: %s', (zone, phrase, expected) => {
    expect(readFilterDate(phrase, NOW, zone)).toEqual(expected);
  });

  it('reads a past day across a DST change by the wall clock', () => {
    // 2026-11-05 15:00 UTC is 10:00 in New York after fall back; "yesterday 9am" is 09:00 EST.
    expect(readFilterDate('yesterday 9am', new Date('2026-11-05T15:00:00.000Z'), 'America/New_York')).toEqual(at('2026-11-04T14:00:00.000Z'));
    // 1 November 2026 09:00 is already EST: the change is at 02:00.
    expect(readFilterDate('yesterday 9am', new Date('2026-11-02T15:00:00.000Z'), 'America/New_York')).toEqual(at('2026-11-01T14:00:00.000Z'));
    // 31 October 09:00 is still EDT (UTC−4), though now is EST.
    expect(readFilterDate('last saturday 9am', new Date('2026-11-02T15:00:00.000Z'), 'America/New_York')).toEqual(at('2026-10-31T13:00:00.000Z'));
  });
});
