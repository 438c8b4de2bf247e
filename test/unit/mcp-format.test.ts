import { describe, expect, it } from 'vitest';
import { describeItem, formatDay, formatDue, organizerNote, quoteTitle } from '../../packages/mcp/src/format.js';
import type { ItemView } from '../../packages/mcp/src/schemas.js';

const NOW = new Date('2026-11-23T12:00:00Z');

describe('formatDue', () => {
  it.each([
    ['2026-11-28T08:00:00.000Z', 'Europe/Berlin', 'Sat 28 Nov 09:00 (Europe/Berlin)'],
    ['2026-11-28T08:00:00.000Z', 'America/New_York', 'Sat 28 Nov 03:00 (America/New_York)'],
    ['2026-11-28T23:30:00.000Z', 'Asia/Tokyo', 'Sun 29 Nov 08:30 (Asia/Tokyo)'],
    ['2026-11-28T08:00:00.000Z', null, 'Sat 28 Nov 08:00 (UTC)'],
    ['2027-01-05T00:00:00.000Z', 'UTC', 'Tue 5 Jan 2027 00:00 (UTC)'],
    ['2026-12-31T23:30:00.000Z', 'Europe/Berlin', 'Fri 1 Jan 2027 00:30 (Europe/Berlin)'],
    ['not a date', 'UTC', 'not a date'],
  ])('%s in %s is %s', (iso, zone, expected) => {
    expect(formatDue(iso, zone, NOW)).toBe(expected);
  });
});

describe("an all-day due in a summary: the date in the user's zone, no time", () => {
  it('says the date and "all day", in the zone, with the year only when it is not this one', () => {
    expect(formatDay('2026-11-27T23:00:00.000Z', 'Europe/Berlin', NOW)).toBe('Sat 28 Nov (all day)');
    expect(formatDay('2027-01-04T23:00:00.000Z', 'Europe/Berlin', NOW)).toBe('Tue 5 Jan 2027 (all day)');
    const item = { id: 'id-2', project_id: 'p', project_name: null, type: 'todo' as const, title: 'Pay rent', content_md: null, is_completed: false };
    const view: ItemView = {
      ...item,
      status: 'todo',
      due_at: '2026-11-27T23:00:00.000Z',
      all_day: true,
      parent_id: null,
      tags: [],
      archived_at: null,
      created_at: '',
      updated_at: '',
    };
    expect(describeItem(view, 'Europe/Berlin')).toMatch(/due Sat 28 Nov(?: 2026)? \(all day\)/);
  });
});

describe('quoteTitle', () => {
  it('quotes, names a missing title and cuts a long one by characters', () => {
    expect(quoteTitle('Call the dentist')).toBe("'Call the dentist'");
    expect(quoteTitle(null)).toBe('(untitled)');
    expect(quoteTitle('   ')).toBe('(untitled)');
    const long = quoteTitle(`${'😀'.repeat(70)}`);
    expect(Array.from(long)).toHaveLength(62);
    expect(long.endsWith("…'")).toBe(true);
  });
});

describe('describeItem', () => {
  const item: ItemView = {
    id: 'id-1',
    project_id: 'p',
    project_name: 'Health',
    type: 'todo',
    title: 'Call the dentist',
    content_md: null,
    is_completed: false,
    status: 'todo',
    due_at: null,
    parent_id: null,
    tags: [],
    archived_at: null,
    created_at: '',
    updated_at: '',
  };
  it('names project, status other than todo, and tags; leaves out what is absent', () => {
    expect(describeItem(item, 'UTC')).toBe("'Call the dentist' → Health · id id-1");
    expect(describeItem({ ...item, project_name: null, status: 'done', tags: ['a', 'b c'] }, 'UTC')).toBe("'Call the dentist', done, @a @b c · id id-1");
  });
});

describe('organizerNote', () => {
  const ai = { engine: 'local' as const, type: 'todo' as const, project_id: null, due_at: null, all_day: false, title: null, reason: null };
  it('names the fields the organizer changed, says when it changed none, and is empty when it did not run', () => {
    expect(organizerNote({ ...ai, applied: ['project_id', 'due_at', 'all_day'] })).toBe(' (the organizer set its project, due date, all-day)');
    expect(organizerNote({ ...ai, applied: [] })).toBe(' (the organizer changed nothing)');
    expect(organizerNote(null)).toBe('');
  });
});
