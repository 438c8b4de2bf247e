import { describe, expect, it } from 'vitest';
import { checkRecurrence } from '../../src/modules/recurrence/rrule-subset.js';
import { nextOccurrence } from '../../src/modules/recurrence/next-occurrence.js';

const next = (rule: string, due: string, o: { from?: 'due' | 'completion'; zone?: string; completedAt?: string; completed?: number } = {}) =>
  nextOccurrence({
    recurrence: { rule, from: o.from ?? 'due' },
    zone: o.zone ?? 'Europe/Berlin',
    due: new Date(due),
    completedAt: new Date(o.completedAt ?? due),
    completed: o.completed ?? 1,
  })?.toISOString() ?? null;

describe('nextOccurrence', () => {
  it.each([
    // 09:00 Berlin stays 09:00 across both daylight-saving changes.
    ['FREQ=DAILY', '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
    ['FREQ=WEEKLY;BYDAY=MO', '2026-10-19T07:00:00.000Z', '2026-10-26T08:00:00.000Z'],
    ['FREQ=DAILY;INTERVAL=3', '2026-11-22T08:00:00.000Z', '2026-11-25T08:00:00.000Z'],
    ['FREQ=WEEKLY;BYDAY=MO,WE,FR', '2026-11-25T08:00:00.000Z', '2026-11-27T08:00:00.000Z'],
    ['FREQ=MONTHLY;BYMONTHDAY=15', '2026-11-15T08:00:00.000Z', '2026-12-15T08:00:00.000Z'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1', '2026-01-31T08:00:00.000Z', '2026-02-28T08:00:00.000Z'],
    ['FREQ=YEARLY', '2026-02-01T08:00:00.000Z', '2027-02-01T08:00:00.000Z'],
    // Seconds and milliseconds stay (issue 45), also across a daylight-saving change.
    ['FREQ=DAILY;INTERVAL=2', '2026-11-21T23:44:14.250Z', '2026-11-23T23:44:14.250Z'],
    ['FREQ=DAILY', '2026-03-28T08:00:59.999Z', '2026-03-29T07:00:59.999Z'],
  ])('%s after %s is %s', (rule, due, expected) => {
    expect(next(rule, due)).toBe(expected);
  });

  it('ends at COUNT (occurrences completed so far) and at UNTIL', () => {
    expect(next('FREQ=DAILY;COUNT=3', '2026-11-22T08:00:00.000Z', { completed: 2 })).toBe('2026-11-23T08:00:00.000Z');
    expect(next('FREQ=DAILY;COUNT=3', '2026-11-22T08:00:00.000Z', { completed: 3 })).toBeNull();
    expect(next('FREQ=DAILY;UNTIL=20261123T000000Z', '2026-11-22T08:00:00.000Z')).toBeNull();
  });

  it("reads UNTIL as RFC 5545 does: Z is UTC, a date-time without Z is the user's wall time, a date alone takes in the whole day", () => {
    // Daily 09:00 Berlin (08:00Z in winter). A date alone: 31 December is still an occurrence.
    expect(next('FREQ=DAILY;UNTIL=20261231', '2026-12-30T08:00:00.000Z')).toBe('2026-12-31T08:00:00.000Z');
    expect(next('FREQ=DAILY;UNTIL=20261231', '2026-12-31T08:00:00.000Z')).toBeNull();
    // Floating 08:30 Berlin is 07:30Z: the 09:00 occurrence that day is past it.
    expect(next('FREQ=DAILY;UNTIL=20261231T083000', '2026-12-30T08:00:00.000Z')).toBeNull();
    expect(next('FREQ=DAILY;UNTIL=20261231T090000', '2026-12-30T08:00:00.000Z')).toBe('2026-12-31T08:00:00.000Z');
    // With Z the same digits are UTC: 08:30Z is after the 08:00Z occurrence.
    expect(next('FREQ=DAILY;UNTIL=20261231T083000Z', '2026-12-30T08:00:00.000Z')).toBe('2026-12-31T08:00:00.000Z');
    // West of UTC a date alone still ends at the zone's midnight, not UTC's.
    expect(next('FREQ=DAILY;UNTIL=20261231', '2026-12-31T02:00:00.000Z', { zone: 'America/Los_Angeles' })).toBe('2027-01-01T02:00:00.000Z');
    expect(next('FREQ=DAILY;UNTIL=20261231', '2027-01-01T02:00:00.000Z', { zone: 'America/Los_Angeles' })).toBeNull();
  });

  it('from completion counts from the day it was completed, at the due time of day', () => {
    expect(next('FREQ=DAILY;INTERVAL=2', '2026-11-01T08:00:00.000Z', { from: 'completion', completedAt: '2026-11-20T18:00:00.000Z' })).toBe(
      '2026-11-22T08:00:00.000Z',
    );
  });
});

describe('checkRecurrence', () => {
  it('normalizes the subset and refuses everything else', () => {
    expect(checkRecurrence({ rule: 'rrule:freq=weekly;byday=mo', from: 'due' })).toEqual({ rule: 'FREQ=WEEKLY;BYDAY=MO', from: 'due' });
    for (const rule of [
      'FREQ=HOURLY',
      'FREQ=DAILY;BYHOUR=9',
      'INTERVAL=2',
      'FREQ=DAILY;COUNT=2;UNTIL=20270101',
      'FREQ=DAILY;FREQ=WEEKLY',
      'FREQ=MONTHLY;BYMONTHDAY=0',
      'nonsense',
      // UNTIL must be a real date and time: Date.UTC would roll these over (issue 45).
      'FREQ=DAILY;UNTIL=20261301',
      'FREQ=DAILY;UNTIL=20260230',
      'FREQ=DAILY;UNTIL=21000229',
      'FREQ=DAILY;UNTIL=20261130T250000Z',
      'FREQ=DAILY;UNTIL=99999999T999999Z',
    ])
      expect(() => checkRecurrence({ rule, from: 'due' }), rule).toThrow();
    for (const until of ['20240229', '20000229', '20261231T235959Z', '20261231T235959']) {
      expect(checkRecurrence({ rule: `FREQ=DAILY;UNTIL=${until}`, from: 'due' }).rule).toBe(`FREQ=DAILY;UNTIL=${until}`);
    }
  });
});
