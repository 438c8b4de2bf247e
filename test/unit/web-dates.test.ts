import { describe, expect, it } from 'vitest';
import { endOfAllDay } from '../../src/lib/dates/all-day.js';
import { dueInputs, dueLabel, isOverdue, localeFrom, overdueTest, parseDueInputs } from '../../src/web/dates.js';
import { placeOf } from '../../src/web/row-placement.js';
import type { ItemView } from '../../src/modules/items/item-view.js';

const now = new Date('2026-11-26T10:00:00.000Z'); // Thursday, 11:00 in Berlin
const berlin = { zone: 'Europe/Berlin', locale: 'en-GB', now };

describe('dueLabel of an all-day due: the date only, overdue once the day has ended', () => {
  it.each([
    ['2026-11-25T23:00:00.000Z', 'today', false],
    ['2026-11-26T23:00:00.000Z', 'tomorrow', false],
    ['2026-11-29T23:00:00.000Z', 'Mon', false],
    ['2026-12-23T23:00:00.000Z', 'Thu 24 Dec', false],
    ['2026-11-24T23:00:00.000Z', 'overdue 1 day', true],
  ])('%s reads "%s"', (iso, text, overdue) => {
    expect(dueLabel(iso, berlin, true)).toMatchObject({ text, overdue });
    expect(dueLabel(iso, berlin, true).full).toMatch(/, all day$/);
  });

  it('counts an all-day item due today as not overdue until midnight, and a timed one from its instant', () => {
    const lateEvening = { zone: 'Europe/Berlin', now: new Date('2026-11-26T22:59:00.000Z') };
    expect(isOverdue({ due_at: '2026-11-25T23:00:00.000Z', all_day: true }, lateEvening)).toBe(false);
    expect(isOverdue({ due_at: '2026-11-25T23:00:00.000Z', all_day: true }, { ...lateEvening, now: new Date('2026-11-26T23:00:00.000Z') })).toBe(true);
    expect(isOverdue({ due_at: '2026-11-26T08:00:00.000Z', all_day: false }, lateEvening)).toBe(true);
    expect(dueInputs('2026-11-26T23:00:00.000Z', 'Europe/Berlin', true)).toEqual({ date: '2026-11-27', time: '' });
  });
});

describe('overdueTest: the rule read once per page', () => {
  it('agrees with the contract rule (an all-day item once its day has ended, a timed one from its instant) across zones and DST changes', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Pacific/Auckland', 'Asia/Kolkata', 'UTC', 'America/St_Johns'];
    // Nows and dues every 7 h 13 min across the spring and autumn changes of both hemispheres.
    const step = (7 * 60 + 13) * 60_000;
    let checked = 0;
    for (const zone of zones) {
      for (let n = Date.parse('2026-03-25T00:00:00Z'); n < Date.parse('2026-04-10T00:00:00Z'); n += step * 3) {
        const c = { zone, now: new Date(n) };
        const test = overdueTest(c);
        for (let d = n - 4 * 86_400_000; d < n + 4 * 86_400_000; d += step) {
          const due_at = new Date(d).toISOString();
          expect(test({ due_at, all_day: true }), `${zone} now ${c.now.toISOString()} all-day ${due_at}`).toBe(endOfAllDay(zone, due_at).getTime() <= n);
          expect(test({ due_at, all_day: false })).toBe(d < n);
          checked += 1;
        }
      }
      expect(overdueTest({ zone, now: new Date() })({ due_at: null, all_day: false })).toBe(false);
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("places an all-day item due today under Today's due-today, as the page does, and yesterday's under overdue", () => {
    const item = (due_at: string, all_day: boolean) =>
      ({ id: 'x', due_at, all_day, is_completed: false, status: 'todo', parent_id: null, project_id: 'p' }) as unknown as ItemView;
    const dates = { ...berlin, now: new Date('2026-11-26T20:00:00.000Z') };
    expect(placeOf({ kind: 'today' }, item('2026-11-25T23:00:00.000Z', true), dates, 'inbox')).toBe('due-today');
    expect(placeOf({ kind: 'today' }, item('2026-11-24T23:00:00.000Z', true), dates, 'inbox')).toBe('overdue');
    expect(placeOf({ kind: 'today' }, item('2026-11-26T19:00:00.000Z', false), dates, 'inbox')).toBe('overdue');
    expect(placeOf({ kind: 'today' }, item('2026-11-26T21:00:00.000Z', false), dates, 'inbox')).toBe('due-today');
  });
});

describe('dueLabel', () => {
  it.each([
    ['2026-11-26T16:00:00.000Z', 'today 17:00', false],
    ['2026-11-27T16:00:00.000Z', 'tomorrow 17:00', false],
    ['2026-11-30T08:30:00.000Z', 'Mon 09:30', false],
    ['2026-12-24T16:00:00.000Z', 'Thu 24 Dec, 17:00', false],
    ['2027-01-05T16:00:00.000Z', 'Tue, 5 Jan 2027, 17:00', false],
    ['2026-11-26T08:00:00.000Z', 'overdue, today 09:00', true],
    ['2026-11-25T16:00:00.000Z', 'overdue 1 day', true],
    ['2026-11-24T16:00:00.000Z', 'overdue 2 days', true],
  ])('%s reads "%s" in Berlin', (iso, text, overdue) => {
    expect(dueLabel(iso, berlin)).toMatchObject({ text, overdue });
  });

  it('counts days in the user zone, not in UTC', () => {
    // 23:30 UTC on the 26th is already the 27th in Berlin.
    expect(dueLabel('2026-11-26T23:30:00.000Z', berlin).text).toBe('tomorrow 00:30');
    expect(dueLabel('2026-11-26T23:30:00.000Z', { ...berlin, zone: 'UTC' }).text).toBe('today 23:30');
  });

  it('formats in the browser locale', () => {
    expect(dueLabel('2026-12-24T16:00:00.000Z', { ...berlin, locale: 'de-DE' }).text).toBe('Do., 24. Dez., 17:00');
    expect(dueLabel('2026-11-27T16:00:00.000Z', { ...berlin, locale: 'en-US' }).text).toBe('tomorrow 5 PM');
    expect(dueLabel('2026-11-27T08:30:00.000Z', { ...berlin, locale: 'en-US' }).text).toBe('tomorrow 9:30 AM');
  });
});

describe('due inputs', () => {
  it('reads a date and time in the zone, across a daylight-saving change', () => {
    expect(parseDueInputs('2026-11-27', '17:00', 'Europe/Berlin')).toEqual({ iso: '2026-11-27T16:00:00.000Z', allDay: false });
    expect(parseDueInputs('2026-07-01', '17:00', 'Europe/Berlin')).toEqual({ iso: '2026-07-01T15:00:00.000Z', allDay: false });
    // A date without a time is all-day: 00:00 of it in the zone.
    expect(parseDueInputs('2026-11-27', '', 'Europe/Berlin')).toEqual({ iso: '2026-11-26T23:00:00.000Z', allDay: true });
    expect(parseDueInputs('', '', 'Europe/Berlin')).toEqual({ iso: null, allDay: false });
  });

  it('refuses what does not exist', () => {
    expect(parseDueInputs('2026-02-30', '', 'UTC')).toEqual({ error: 'That date does not exist.' });
    expect(parseDueInputs('27.11.2026', '', 'UTC')).toEqual({ error: 'Enter the date as YYYY-MM-DD.' });
    expect(parseDueInputs('2026-11-27', '25:00', 'UTC')).toEqual({ error: 'That time does not exist.' });
    expect(parseDueInputs('', '10:00', 'UTC')).toEqual({ error: 'Choose a date for this time.' });
  });

  it('fills the inputs back in the zone', () => {
    expect(dueInputs('2026-11-26T23:30:00.000Z', 'Europe/Berlin')).toEqual({ date: '2026-11-27', time: '00:30' });
    expect(dueInputs(null, 'UTC')).toEqual({ date: '', time: '' });
  });
});

describe('localeFrom', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de-DE'],
    ['*', 'en-GB'],
    [undefined, 'en-GB'],
    ['x-???, fr-CA', 'fr-CA'],
  ])('%s → %s', (header, locale) => {
    expect(localeFrom(header)).toBe(locale);
  });
});
