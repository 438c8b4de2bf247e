import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Contract "All-day dates": an item due on a day, through every way the API sets, moves and carries it. */
describe.each(DIALECTS)('all-day dates (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { logger: (await import('pino')).pino({ level: 'error' }) });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Saturday 21 Nov 2026, 18:30 in New York (UTC-5).
  const SATURDAY_EVENING = '2026-11-21T23:30:00.000Z';
  async function newYorker(plan: 'free' | 'pro' = 'free', reminderDefault: number | null = null): Promise<Actor> {
    const a = await actor(t, plan);
    ok(await a.c.patch('me', { timezone: 'America/New_York', reminder_default: reminderDefault }));
    return a;
  }

  describe('capture', () => {
    it('stores all_day with due_at at 00:00 local of its date; an all-day due gets no default reminder', async () => {
      t.clock.set(SATURDAY_EVENING);
      const a = await newYorker('free', 30);
      const item = await capture(a.c, 'buy milk', { due_at: '2026-11-23T18:45:00.000Z', all_day: true });
      expect(item).toMatchObject({ all_day: true, due_at: '2026-11-23T05:00:00.000Z', remind_at: null });
      const timed = await capture(a.c, 'call', { due_at: '2026-11-23T18:45:00.000Z' });
      expect(timed).toMatchObject({ all_day: false, due_at: '2026-11-23T18:45:00.000Z', remind_at: '2026-11-23T18:15:00.000Z' });
      expect(ok(await a.c.get(`items/${item.id}`))).toMatchObject({ all_day: true, due_at: '2026-11-23T05:00:00.000Z' });
    });

    it('refuses all_day: true without a due_at (400, nothing stored)', async () => {
      const a = await newYorker();
      expectError(await a.c.post('capture', { text: 'no day', all_day: true }), 400, 'bad_request');
      expect(ok(await a.c.get('items')).items).toEqual([]);
    });

    it('with parse: "this weekend" typed on a Saturday evening is due today, all-day (overdue only once the day ends)', async () => {
      t.clock.set(SATURDAY_EVENING);
      const a = await newYorker('free', 30);
      const item = await capture(a.c, 'clean garage this weekend', { parse: true });
      expect(item).toMatchObject({ title: 'clean garage', all_day: true, due_at: '2026-11-21T05:00:00.000Z', remind_at: null });
      const timed = await capture(a.c, 'call mom tomorrow 5pm', { parse: true });
      expect(timed).toMatchObject({ all_day: false, due_at: '2026-11-22T22:00:00.000Z', remind_at: '2026-11-22T21:30:00.000Z' });
      // An explicit due_at wins, and with it the request's own all_day (false by default).
      const explicit = await capture(a.c, 'dentist friday', { parse: true, due_at: '2026-11-27T15:00:00.000Z' });
      expect(explicit).toMatchObject({ all_day: false, due_at: '2026-11-27T15:00:00.000Z' });
    });

    it('a recurrence phrase without a time is all-day, starting today when today matches', async () => {
      t.clock.set(SATURDAY_EVENING);
      const a = await newYorker();
      const item = await capture(a.c, 'water plants every day', { parse: true });
      expect(item).toMatchObject({ all_day: true, due_at: '2026-11-21T05:00:00.000Z', recurrence: { rule: 'FREQ=DAILY', from: 'due' } });
    });

    it('the organizer answers ai.all_day and names it in applied', async () => {
      t.clock.set(SATURDAY_EVENING);
      const a = await newYorker('pro');
      const res = ok(await a.c.post('capture', { text: 'buy milk tomorrow', organize: true }), 201);
      expect(res).toMatchObject({ all_day: true, due_at: '2026-11-22T05:00:00.000Z' });
      expect(res.ai).toMatchObject({ all_day: true, due_at: '2026-11-22T05:00:00.000Z' });
      expect(res.ai.applied).toEqual(expect.arrayContaining(['due_at', 'all_day']));
      const timed = ok(await a.c.post('capture', { text: 'call mom tomorrow at 5pm', organize: true }), 201);
      expect(timed.ai.all_day).toBe(false);
      expect(timed.ai.applied).not.toContain('all_day');
      // POST /items/{id}/organize on a stored item sets it too.
      const stored = await capture(a.c, 'renew passport friday');
      const organized = ok(await a.c.post(`items/${stored.id}/organize`));
      expect(organized).toMatchObject({ all_day: true, due_at: '2026-11-27T05:00:00.000Z', ai: { all_day: true } });
    });
  });

  describe('PATCH /api/v1/items/{id}', () => {
    it('snaps an all-day due to 00:00 local, keeps all_day when only due_at changes, clears it with due_at', async () => {
      t.clock.set(SATURDAY_EVENING);
      const a = await newYorker('free', 30);
      const item = await capture(a.c, 'report');
      const allDay = ok(await a.c.patch(`items/${item.id}`, { due_at: '2026-11-25T20:00:00.000Z', all_day: true }));
      expect(allDay).toMatchObject({ all_day: true, due_at: '2026-11-25T05:00:00.000Z', remind_at: null });
      // A new due_at alone keeps all_day: the local date of the new value, at 00:00.
      const moved = ok(await a.c.patch(`items/${item.id}`, { due_at: '2026-11-27T16:00:00.000Z' }));
      expect(moved).toMatchObject({ all_day: true, due_at: '2026-11-27T05:00:00.000Z', remind_at: null });
      // Back to a timed due: the instant stays as given.
      const timed = ok(await a.c.patch(`items/${item.id}`, { all_day: false, due_at: '2026-11-27T16:00:00.000Z' }));
      expect(timed).toMatchObject({ all_day: false, due_at: '2026-11-27T16:00:00.000Z', remind_at: '2026-11-27T15:30:00.000Z' });
      ok(await a.c.patch(`items/${item.id}`, { all_day: true }));
      const cleared = ok(await a.c.patch(`items/${item.id}`, { due_at: null }));
      expect(cleared).toMatchObject({ all_day: false, due_at: null });
    });

    it('refuses all_day: true on an item without a due date, and changes nothing', async () => {
      const a = await newYorker();
      const item = await capture(a.c, 'someday');
      expectError(await a.c.patch(`items/${item.id}`, { all_day: true, title: 'changed' }), 400, 'bad_request');
      expectError(await a.c.patch(`items/${item.id}`, { all_day: true, due_at: null }), 400, 'bad_request');
      expect(ok(await a.c.get(`items/${item.id}`))).toMatchObject({ title: 'someday', all_day: false, due_at: null });
    });
  });

  it('POST /parse and GET /dates/read answer all_day', async () => {
    t.clock.set(SATURDAY_EVENING);
    const a = await newYorker();
    expect(ok(await a.c.post('parse', { text: 'gifts dec 24' }))).toMatchObject({ all_day: true, due_at: '2026-12-24T05:00:00.000Z' });
    expect(ok(await a.c.post('parse', { text: 'gifts dec 24 3pm' }))).toMatchObject({ all_day: false, due_at: '2026-12-24T20:00:00.000Z' });
    expect(ok(await a.c.get('dates/read?text=tomorrow'))).toMatchObject({ all_day: true, due_at: '2026-11-22T05:00:00.000Z' });
    expect(ok(await a.c.get('dates/read?text=tomorrow%205pm'))).toMatchObject({ all_day: false, due_at: '2026-11-22T22:00:00.000Z' });
  });

  it('completing a recurring all-day item moves it to 00:00 local of the next day the rule gives', async () => {
    t.clock.set(SATURDAY_EVENING);
    const a = await newYorker();
    const item = await capture(a.c, 'stretch', { due_at: '2026-11-21T05:00:00.000Z', all_day: true, recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,TH', from: 'due' } });
    const moved = ok(await a.c.post(`items/${item.id}/toggle`));
    expect(moved).toMatchObject({ all_day: true, is_completed: false, due_at: '2026-11-23T05:00:00.000Z' });
    const again = ok(await a.c.post(`items/${item.id}/toggle`));
    expect(again).toMatchObject({ all_day: true, due_at: '2026-11-26T05:00:00.000Z' });
  });

  it('a timezone change keeps all-day items on their calendar day and timed items at their instant, with item.updated', async () => {
    t.clock.set(SATURDAY_EVENING);
    const a = await newYorker();
    const day = await capture(a.c, 'holiday', { due_at: '2026-12-24T05:00:00.000Z', all_day: true });
    const timed = await capture(a.c, 'flight', { due_at: '2026-12-24T15:00:00.000Z' });
    await a.events.take();
    ok(await a.c.patch('me', { timezone: 'Asia/Tokyo' }));
    expect(ok(await a.c.get(`items/${day.id}`))).toMatchObject({ all_day: true, due_at: '2026-12-23T15:00:00.000Z' });
    expect(ok(await a.c.get(`items/${timed.id}`))).toMatchObject({ all_day: false, due_at: '2026-12-24T15:00:00.000Z' });
    const events = await a.events.take();
    expect(events.map((e) => [e.event, (e.data as { item: { id: string } }).item.id])).toEqual([['item.updated', day.id]]);
  });

  describe('export and import', () => {
    it('the export carries all_day; import keeps the calendar date in the importing user\'s zone', async () => {
      t.clock.set(SATURDAY_EVENING);
      const from = await newYorker();
      await capture(from.c, 'holiday', { due_at: '2026-12-24T05:00:00.000Z', all_day: true });
      const doc = JSON.parse((await from.c.get('export?format=json')).text) as { items: Array<Record<string, unknown>> };
      expect(doc.items[0]).toMatchObject({ all_day: true, due_at: '2026-12-24T05:00:00.000Z' });
      const to = await actor(t);
      ok(await to.c.patch('me', { timezone: 'Europe/Berlin' }));
      ok(await to.c.post('import', doc));
      const [imported] = ok(await to.c.get('items')).items;
      expect(imported).toMatchObject({ title: 'holiday', all_day: true, due_at: '2026-12-23T23:00:00.000Z' });
      const markdown = (await from.c.get('export?format=markdown')).text;
      expect(markdown).toContain('holiday (due 2026-12-24)');
    });

    it('a Todoist DATE without a time is all-day; with a time it is timed', async () => {
      t.clock.set(SATURDAY_EVENING);
      const a = await newYorker();
      const csv = ['TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,DATE', 'task,Day task,,4,1,Dec 24', 'task,Timed task,,4,1,Dec 24 3pm', 'task,Old day,,4,1,2026-01-05', ''].join('\n');
      ok(await a.c.post('import', csv, { 'content-type': 'text/csv' }));
      const byTitle = new Map((ok(await a.c.get('items')).items as Array<{ title: string }>).map((i) => [i.title, i]));
      expect(byTitle.get('Day task')).toMatchObject({ all_day: true, due_at: '2026-12-24T05:00:00.000Z' });
      expect(byTitle.get('Timed task')).toMatchObject({ all_day: false, due_at: '2026-12-24T20:00:00.000Z' });
      expect(byTitle.get('Old day')).toMatchObject({ all_day: true, due_at: '2026-01-05T05:00:00.000Z' });
    });
  });
});
