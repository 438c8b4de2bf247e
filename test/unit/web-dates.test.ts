import { describe, expect, it } from 'vitest';
import { dueInputs, dueLabel, isOverdue, localeFrom, parseDueInputs } from '../../src/web/dates.js';

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
