import { describe, expect, it } from 'vitest';
import { readQuickAdd, type GrammarContext, type QuickAdd } from '../../src/modules/quick-add/grammar.js';

// Wednesday 2026-11-18, 14:30 in New York (UTC-5), as in the organizer's own tests.
const NOW = new Date('2026-11-18T19:30:00Z');
const ZONE = 'America/New_York';
const PROJECTS = [
  { id: 'p-inbox', name: 'Inbox' },
  { id: 'p-work', name: 'Work' },
  { id: 'p-side', name: 'Side project' },
  { id: 'p-two', name: 'Two Words' },
];
const ctx: GrammarContext = { now: NOW, zone: ZONE, projects: PROJECTS };
const read = (text: string, at: Partial<GrammarContext> = {}): QuickAdd => readQuickAdd(text, { ...ctx, ...at });

describe('quick add: fields read from the first line', () => {
  it.each<[string, Partial<QuickAdd>]>([
    ['Call Sam tomorrow 5pm #Work @calls', { title: 'Call Sam', due_at: '2026-11-19T22:00:00.000Z', project_id: 'p-work', tags: ['calls'] }],
    ['Buy batteries #Errands', { title: 'Buy batteries #Errands', project_id: null, tags: [], due_at: null }],
    ['Plan #sideproject launch', { title: 'Plan launch', project_id: 'p-side' }],
    ['Plan #SIDEPROJECT launch', { project_id: 'p-side' }],
    ['Read #"two words" chapter', { title: 'Read chapter', project_id: 'p-two' }],
    ['Read #"Missing project" chapter', { title: 'Read #"Missing project" chapter', project_id: null }],
    ['File it #inbox', { title: 'File it', project_id: 'p-inbox' }],
    ['First #Work then #sideproject', { title: 'First then #sideproject', project_id: 'p-work' }],
    ['Mail me@example.com about @home', { title: 'Mail me@example.com about', tags: ['home'] }],
    ['ping bob@corp.io and x@y', { title: 'ping bob@corp.io and x@y', tags: [] }],
    ['Buy milk @home.', { title: 'Buy milk.', tags: ['home'] }],
    ['Errands @Home @home @shop', { title: 'Errands', tags: ['Home', 'shop'] }],
    ['(@calls) ring back', { tags: ['calls'] }],
    ['Pay rent on Friday #home', { title: 'Pay rent #home', due_at: '2026-11-20T05:00:00.000Z', all_day: true, project_id: null }],
    ['call @5pm', { title: 'call', tags: [], due_at: '2026-11-18T22:00:00.000Z' }],
    ['#Work @calls', { title: '#Work @calls', project_id: 'p-work', tags: ['calls'] }],
    [
      'Standup every weekday 9am',
      { title: 'Standup', due_at: '2026-11-19T14:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from: 'due' } },
    ],
    [
      'Water plants every! 3 days',
      { title: 'Water plants', due_at: '2026-11-18T05:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=DAILY;INTERVAL=3', from: 'completion' } },
    ],
    ['Review every day', { due_at: '2026-11-18T05:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=DAILY', from: 'due' } }],
    ['Sweep every day 5pm', { due_at: '2026-11-18T22:00:00.000Z', all_day: false, recurrence: { rule: 'FREQ=DAILY', from: 'due' } }],
    ['Sync every week at 4', { due_at: '2026-11-18T21:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY', from: 'due' } }],
    ['Payroll every 2 weeks', { due_at: '2026-11-18T05:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=WEEKLY;INTERVAL=2', from: 'due' } }],
    ['1:1 every other week', { recurrence: { rule: 'FREQ=WEEKLY;INTERVAL=2', from: 'due' } }],
    [
      'Team call every monday 9am #Work',
      { title: 'Team call', project_id: 'p-work', due_at: '2026-11-23T14:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO', from: 'due' } },
    ],
    ['Gym every mon, wed at 7am', { title: 'Gym', due_at: '2026-11-23T12:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,WE', from: 'due' } }],
    ['Gym every friday and monday', { recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,FR', from: 'due' }, due_at: '2026-11-20T05:00:00.000Z' }],
    ['Backup every month', { due_at: '2026-11-18T05:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=MONTHLY', from: 'due' } }],
    [
      'Pay rent every month on the 15th',
      { title: 'Pay rent', due_at: '2026-12-15T05:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=MONTHLY;BYMONTHDAY=15', from: 'due' } },
    ],
    ['Invoice every 1st', { recurrence: { rule: 'FREQ=MONTHLY;BYMONTHDAY=1', from: 'due' }, due_at: '2026-12-01T05:00:00.000Z' }],
    ['Taxes every year due april 15', { title: 'Taxes', due_at: '2027-04-15T04:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=YEARLY', from: 'due' } }],
    ['Walk every weekend', { recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SA,SU', from: 'due' }, due_at: '2026-11-21T05:00:00.000Z', all_day: true }],
    ['every thing matters', { title: 'every thing matters', recurrence: null, due_at: null }],
    ['Eat every day 5 apples', { title: 'Eat 5 apples', recurrence: { rule: 'FREQ=DAILY', from: 'due' } }],
    ['Do everyday stuff', { title: 'Do everyday stuff', recurrence: null }],
    ["notes from tuesday's meeting", { title: "notes from tuesday's meeting", due_at: null }],
  ])('"%s"', (text, expected) => {
    expect(read(text)).toMatchObject(expected);
  });

  it('understands only the first line; the rest is the body as typed', () => {
    const text = '\n  Call #Work\nnotes @home tomorrow';
    expect(read(text)).toMatchObject({ title: 'Call', content_md: 'notes @home tomorrow', project_id: 'p-work', tags: [], due_at: null });
    expect(read(text).spans).toEqual([{ kind: 'project', start: 8, end: 13, text: '#Work', value: 'p-work' }]);
  });

  it('answers spans in UTF-16 offsets of the text as sent, emoji included', () => {
    const text = 'Call Sam tomorrow 5pm #Work @calls';
    expect(read(text).spans).toEqual([
      { kind: 'date', start: 9, end: 21, text: 'tomorrow 5pm', value: '2026-11-19T22:00:00.000Z' },
      { kind: 'project', start: 22, end: 27, text: '#Work', value: 'p-work' },
      { kind: 'tag', start: 28, end: 34, text: '@calls', value: 'calls' },
    ]);
    const party = '🎉 Party tomorrow @fun 👩‍👩‍👧 every! week';
    const spans = read(party).spans;
    expect(spans.map((s) => [s.kind, s.start, s.end])).toEqual([
      ['date', 9, 17],
      ['tag', 18, 22],
      ['recurrence', 32, 43],
    ]);
    for (const s of spans) expect(party.slice(s.start, s.end)).toBe(s.text);
    expect(read(party)).toMatchObject({
      title: '🎉 Party 👩‍👩‍👧',
      due_at: '2026-11-19T05:00:00.000Z',
      all_day: true,
      recurrence: { rule: 'FREQ=WEEKLY', from: 'completion' },
    });
  });

  it('never answers overlapping spans: a date read across a token is two pieces', () => {
    const found = read('Meet Bob at 3 @work on friday');
    expect(found).toMatchObject({ title: 'Meet Bob', tags: ['work'], due_at: '2026-11-20T20:00:00.000Z' });
    expect(found.spans.map((s) => [s.kind, s.text])).toEqual([
      ['date', 'at 3'],
      ['tag', '@work'],
      ['date', 'on friday'],
    ]);
  });

  it('keeps at most 20 tags, as an item holds; the rest stay in the title', () => {
    const names = Array.from({ length: 22 }, (_, i) => `t${i}`);
    const found = read(`Lots ${names.map((n) => `@${n}`).join(' ')}`);
    expect(found.tags).toEqual(names.slice(0, 20));
    expect(found.title).toBe('Lots @t20 @t21');
  });

  it('leaves a first line too long to be a title alone: the whole text is the body', () => {
    const text = `${'word '.repeat(120)}#Work tomorrow`;
    expect(read(text)).toMatchObject({ project_id: null, due_at: null, spans: [], content_md: text.trim() });
  });

  it('a date given with a rule is the first due date; a rule alone gives its first occurrence', () => {
    expect(read('Report every friday 3pm')).toMatchObject({ due_at: '2026-11-20T20:00:00.000Z' });
    expect(read('Report every friday starting tomorrow')).toMatchObject({
      due_at: '2026-11-19T05:00:00.000Z',
      all_day: true,
      recurrence: { rule: 'FREQ=WEEKLY;BYDAY=FR' },
    });
  });

  it('keeps the wall time across a daylight-saving change', () => {
    // Wednesday 2027-03-10, 10:00 in New York; clocks go forward on Sunday the 14th.
    const now = new Date('2027-03-10T15:00:00Z');
    expect(read('Standup every monday 9am', { now }).due_at).toBe('2027-03-15T13:00:00.000Z');
    expect(read('Standup every day 9am', { now }).due_at).toBe('2027-03-11T14:00:00.000Z');
    expect(read('Rent every month on the 15th', { now, zone: 'Europe/Berlin' }).due_at).toBe('2027-03-14T23:00:00.000Z');
    // An all-day rule that matches today starts today, past nine or not (the 31st, in summer time).
    expect(read('Rent every month on the 31st', { now: new Date('2027-03-31T12:00:00Z'), zone: 'Europe/Berlin' }).due_at).toBe('2027-03-30T22:00:00.000Z');
  });

  it('never fails: odd input is text', () => {
    for (const text of ['#', '@', '#""', 'every', 'every!', 'every 0 days', 'every month on the 40th', 'every day at 25', '@@@ ###', '\u0000 #Work']) {
      expect(() => read(text)).not.toThrow();
    }
    expect(read('every 0 days').recurrence).toBeNull();
    expect(read('every month on the 40th').recurrence).toBeNull();
  });
});
