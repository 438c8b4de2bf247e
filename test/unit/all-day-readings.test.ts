import { describe, expect, it } from 'vitest';
import { findDueDate } from '../../src/lib/dates/due-date.js';
import { allDayDueAt, endOfAllDay, sameDayIn } from '../../src/lib/dates/all-day.js';
import { readQuickAdd, type GrammarContext } from '../../src/modules/quick-add/grammar.js';

// Wednesday 2026-11-18, 14:30 in New York (UTC-5).
const NOW = new Date('2026-11-18T19:30:00Z');
const ZONE = 'America/New_York';
const read = (text: string, now = NOW, zone = ZONE) => findDueDate(text, now, zone);
const quick = (text: string, at: Partial<GrammarContext> = {}) => readQuickAdd(text, { now: NOW, zone: ZONE, projects: [], ...at });

describe('all-day readings (contract "All-day dates")', () => {
  it.each([
    ['buy milk tomorrow', '2026-11-19T05:00:00.000Z'],
    ['dentist friday', '2026-11-20T05:00:00.000Z'],
    ['gifts dec 24', '2026-12-24T05:00:00.000Z'],
    ['clean garage this weekend', '2026-11-21T05:00:00.000Z'],
    ['plan trip next week', '2026-11-23T05:00:00.000Z'],
    ['renew passport in 3 days', '2026-11-21T05:00:00.000Z'],
    ['pay rent on the 15th', '2026-12-15T05:00:00.000Z'],
  ])('"%s" is all-day, due %s (00:00 local)', (text, due) => {
    expect(read(text)).toMatchObject({ allDay: true });
    expect(read(text).dueAt?.toISOString()).toBe(due);
  });

  it.each([
    ['call mom tomorrow 5pm', '2026-11-19T22:00:00.000Z'],
    ['pizza tonight', '2026-11-19T01:00:00.000Z'],
    ['send report eod', '2026-11-18T22:00:00.000Z'],
    ['in 2 hours check the oven', '2026-11-18T21:30:00.000Z'],
    ['run tomorrow morning', '2026-11-19T14:00:00.000Z'],
  ])('"%s" is timed, due %s', (text, due) => {
    expect(read(text)).toMatchObject({ allDay: false });
    expect(read(text).dueAt?.toISOString()).toBe(due);
  });

  it('"this weekend" on a Saturday evening or a Sunday is today, not overdue at birth', () => {
    const saturdayEvening = new Date('2026-11-21T23:30:00Z'); // 18:30 in New York
    expect(read('clean garage this weekend', saturdayEvening).dueAt?.toISOString()).toBe('2026-11-21T05:00:00.000Z');
    const sunday = new Date('2026-11-22T15:00:00Z');
    expect(read('clean garage this weekend', sunday).dueAt?.toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(read('clean garage next weekend', sunday).dueAt?.toISOString()).toBe('2026-11-28T05:00:00.000Z');
  });

  it('a date named on its own day is today; a bare weekday is its next occurrence', () => {
    const dec24 = new Date('2026-12-24T20:00:00Z');
    expect(read('gifts dec 24', dec24).dueAt?.toISOString()).toBe('2026-12-24T05:00:00.000Z');
    const the15th = new Date('2026-12-15T22:00:00Z');
    expect(read('pay rent on the 15th', the15th).dueAt?.toISOString()).toBe('2026-12-15T05:00:00.000Z');
    // Wednesday: "wednesday" is next week's.
    expect(read('dentist wednesday').dueAt?.toISOString()).toBe('2026-11-25T05:00:00.000Z');
  });

  it('a recurrence without a time is all-day and starts today when today matches', () => {
    expect(quick('Review every day')).toMatchObject({ all_day: true, due_at: '2026-11-18T05:00:00.000Z' });
    expect(quick('Stretch every wednesday')).toMatchObject({ all_day: true, due_at: '2026-11-18T05:00:00.000Z' });
    expect(quick('Stretch every thursday')).toMatchObject({ all_day: true, due_at: '2026-11-19T05:00:00.000Z' });
    expect(quick('Sweep every day 5pm')).toMatchObject({ all_day: false, due_at: '2026-11-18T22:00:00.000Z' });
  });

  it('moves all-day dues by calendar day, not by instant', () => {
    expect(allDayDueAt(ZONE, '2026-11-19T18:45:00.000Z')).toBe('2026-11-19T05:00:00.000Z');
    expect(sameDayIn(ZONE, 'Asia/Tokyo', '2026-11-19T05:00:00.000Z')).toBe('2026-11-18T15:00:00.000Z');
    expect(endOfAllDay(ZONE, '2026-11-19T05:00:00.000Z').toISOString()).toBe('2026-11-20T05:00:00.000Z');
  });
});

/* Issue 47 item 7: quick add removes nothing outside what it highlights. */
describe('quick add cuts only what it highlights', () => {
  const outside = (text: string) => {
    const found = quick(text);
    let rest = text;
    for (const s of [...found.spans].reverse()) rest = `${rest.slice(0, s.start)} ${rest.slice(s.end)}`;
    return { found, rest: rest.replace(/\s+/g, ' ').trim() };
  };

  it('"Prepare slides for Monday meeting": due Monday, every other word stays', () => {
    const { found, rest } = outside('Prepare slides for Monday meeting');
    expect(found.spans.map((s) => s.text)).toEqual(['Monday']);
    expect(found.title).toBe('Prepare slides for meeting');
    expect(found.title).toBe(rest);
    expect(found).toMatchObject({ due_at: '2026-11-23T05:00:00.000Z', all_day: true });
  });

  it('"Watch Friday Night Lights": a title, not a date', () => {
    expect(quick('Watch Friday Night Lights')).toMatchObject({ title: 'Watch Friday Night Lights', due_at: null, spans: [] });
  });

  it.each(['Pay rent on Friday', 'buy milk by friday for Ana', 'call mom tomorrow at 5pm', 'Meet Bob at 3 @work on friday', 'report due dec 3'])(
    '"%s": the title is the text without its highlights',
    (text) => {
      const { found, rest } = outside(text);
      expect(found.spans.length).toBeGreaterThan(0);
      expect(found.title).toBe(rest);
    },
  );
});
