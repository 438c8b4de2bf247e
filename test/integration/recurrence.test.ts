import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import type { JsonBody } from '../helpers/test-app.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Contract "Recurrence": the rule, completion moving the item on, its events, completions, quick add. */
describe.each(DIALECTS)('recurrence (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { logger: (await import('pino')).pino({ level: 'error' }) });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function berliner(): Promise<Actor> {
    const a = await actor(t);
    ok(await a.c.patch('me', { timezone: 'Europe/Berlin' }));
    return a;
  }

  describe('POST /api/v1/items/{id}/toggle on a recurring item', () => {
    it('moves it to the next occurrence with item.completed (next_due_at) then item.updated, and lists the completion', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const a = await berliner();
      const item = await capture(a.c, 'water the plants', {
        due_at: '2026-11-22T08:00:00.000Z',
        remind_at: '2026-11-22T07:45:00.000Z',
        recurrence: { rule: 'FREQ=DAILY;INTERVAL=3', from: 'due' },
      });
      expect(item.recurrence).toEqual({ rule: 'FREQ=DAILY;INTERVAL=3', from: 'due' });
      await a.events.take();
      const moved = ok(await a.c.post(`items/${item.id}/toggle`));
      expect(moved).toMatchObject({ is_completed: false, status: 'todo', due_at: '2026-11-25T08:00:00.000Z', remind_at: '2026-11-25T07:45:00.000Z' });
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(['item.completed', 'item.updated']);
      expect(events[0]!.data).toMatchObject({
        item: { is_completed: true, status: 'done', due_at: '2026-11-22T08:00:00.000Z' },
        next_due_at: '2026-11-25T08:00:00.000Z',
      });
      expect(events[1]!.data.item).toMatchObject({ is_completed: false, due_at: '2026-11-25T08:00:00.000Z' });
      const { completions, next_cursor } = ok(await a.c.get(`items/${item.id}/completions`));
      expect(completions).toEqual([{ completed_at: '2026-11-21T10:00:00.000Z', due_at: '2026-11-22T08:00:00.000Z' }]);
      expect(next_cursor).toBeNull();
    });

    it('keeps 09:00 local across the end of daylight-saving time (weekly, Europe/Berlin)', async () => {
      t.clock.set('2026-10-20T10:00:00.000Z');
      const a = await berliner();
      // Monday 26 Oct 2026 09:00 CET is 08:00Z; the Monday before (19 Oct, CEST) 09:00 is 07:00Z.
      const item = await capture(a.c, 'standup', { due_at: '2026-10-19T07:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO', from: 'due' } });
      const moved = ok(await a.c.post(`items/${item.id}/toggle`));
      expect(moved.due_at).toBe('2026-10-26T08:00:00.000Z');
    });

    it('ends as an ordinary completion when COUNT is reached', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const a = await berliner();
      const item = await capture(a.c, 'twice', { due_at: '2026-11-22T08:00:00.000Z', recurrence: { rule: 'FREQ=DAILY;COUNT=2', from: 'due' } });
      expect(ok(await a.c.post(`items/${item.id}/toggle`))).toMatchObject({ is_completed: false, due_at: '2026-11-23T08:00:00.000Z' });
      await a.events.take();
      const done = ok(await a.c.post(`items/${item.id}/toggle`));
      expect(done).toMatchObject({ is_completed: true, status: 'done', due_at: '2026-11-23T08:00:00.000Z' });
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(['item.completed']);
      expect(events[0]!.data.next_due_at).toBeUndefined();
      expect(ok(await a.c.get(`items/${item.id}/completions`)).completions).toHaveLength(2);
    });

    it('from completion: the next occurrence follows the day of completion', async () => {
      t.clock.set('2026-11-25T12:00:00.000Z');
      const a = await berliner();
      const item = await capture(a.c, 'every! 3 days', {
        due_at: '2026-11-20T08:00:00.000Z',
        recurrence: { rule: 'FREQ=DAILY;INTERVAL=3', from: 'completion' },
      });
      expect(ok(await a.c.post(`items/${item.id}/toggle`)).due_at).toBe('2026-11-28T08:00:00.000Z');
    });
  });

  describe('seconds and milliseconds of due_at and remind_at (issue 45)', () => {
    it('are kept by the next occurrence, from due and from completion', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const a = await berliner();
      const item = await capture(a.c, 'every 2 days', {
        due_at: '2026-11-21T23:44:14.250Z',
        remind_at: '2026-11-21T23:30:07.001Z',
        recurrence: { rule: 'FREQ=DAILY;INTERVAL=2', from: 'due' },
      });
      const moved = ok(await a.c.post(`items/${item.id}/toggle`));
      expect(moved).toMatchObject({ due_at: '2026-11-23T23:44:14.250Z', remind_at: '2026-11-23T23:30:07.001Z' });
      t.clock.set('2026-11-25T12:00:00.000Z');
      const fromCompletion = await capture(a.c, 'every! 2 days', {
        due_at: '2026-11-20T07:05:59.999Z',
        recurrence: { rule: 'FREQ=DAILY;INTERVAL=2', from: 'completion' },
      });
      expect(ok(await a.c.post(`items/${fromCompletion.id}/toggle`)).due_at).toBe('2026-11-27T07:05:59.999Z');
    });
  });

  describe('retries and stale requests', () => {
    it('a retry with the same Idempotency-Key, or If-Match with the old ETag, never skips a second occurrence', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const a = await berliner();
      const item = await capture(a.c, 'daily', { due_at: '2026-11-22T08:00:00.000Z', recurrence: { rule: 'FREQ=DAILY', from: 'due' } });
      const read = await a.c.get(`items/${item.id}`);
      const etag = String(read.headers.etag);
      const first = await a.c.post(`items/${item.id}/toggle`, undefined, { 'idempotency-key': 'k-1', 'if-match': etag });
      expect(first.status).toBe(200);
      const again = await a.c.post(`items/${item.id}/toggle`, undefined, { 'idempotency-key': 'k-1', 'if-match': etag });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.due_at).toBe('2026-11-23T08:00:00.000Z');
      expectError(await a.c.post(`items/${item.id}/toggle`, undefined, { 'if-match': etag }), 412, 'precondition_failed');
      expect(ok(await a.c.get(`items/${item.id}`)).due_at).toBe('2026-11-23T08:00:00.000Z');
      expect(ok(await a.c.get(`items/${item.id}/completions`)).completions).toHaveLength(1);
    });
  });

  describe('every completion path', () => {
    it('PATCH status done, bulk toggle and MCP-style set-to-done all move the item on', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const a = await berliner();
      const item = await capture(a.c, 'weekly', { due_at: '2026-11-23T08:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY', from: 'due' } });
      expect(ok(await a.c.patch(`items/${item.id}`, { status: 'done' })).due_at).toBe('2026-11-30T08:00:00.000Z');
      const bulk = ok(await a.c.post('items/bulk', { ids: [item.id], op: 'toggle', payload: { is_completed: true } }));
      expect(bulk).toMatchObject({ ok: true, updated: 1 });
      expect(ok(await a.c.get(`items/${item.id}`))).toMatchObject({ is_completed: false, due_at: '2026-12-07T08:00:00.000Z' });
      expect(ok(await a.c.get(`items/${item.id}/completions`)).completions).toHaveLength(2);
    });
  });

  describe('PATCH /api/v1/items/{id}', () => {
    it('sets and ends a rule; clearing due_at needs the rule ended too', async () => {
      const a = await berliner();
      const item = await capture(a.c, 'x', { due_at: '2026-11-23T08:00:00.000Z' });
      expect(ok(await a.c.patch(`items/${item.id}`, { recurrence: { rule: 'rrule:freq=monthly;bymonthday=15', from: 'due' } })).recurrence).toEqual({
        rule: 'FREQ=MONTHLY;BYMONTHDAY=15',
        from: 'due',
      });
      expectError(await a.c.patch(`items/${item.id}`, { due_at: null }), 400, 'bad_request');
      const ended = ok(await a.c.patch(`items/${item.id}`, { due_at: null, recurrence: null }));
      expect(ended).toMatchObject({ due_at: null, recurrence: null });
    });

    it('answers 400 and stores nothing for parts outside the subset, a rule without a due date, a remind_at that is not a date-time', async () => {
      const a = await berliner();
      const item = await capture(a.c, 'y');
      const before = await fingerprint(t.services.db);
      for (const body of [
        { recurrence: { rule: 'FREQ=HOURLY', from: 'due' }, due_at: '2026-11-23T08:00:00.000Z' },
        { recurrence: { rule: 'FREQ=DAILY;BYHOUR=9', from: 'due' }, due_at: '2026-11-23T08:00:00.000Z' },
        { recurrence: { rule: 'FREQ=DAILY;INTERVAL=0', from: 'due' }, due_at: '2026-11-23T08:00:00.000Z' },
        { recurrence: { rule: 'FREQ=WEEKLY;BYDAY=XX', from: 'due' }, due_at: '2026-11-23T08:00:00.000Z' },
        { recurrence: { rule: 'FREQ=DAILY', from: 'later' }, due_at: '2026-11-23T08:00:00.000Z' },
        { recurrence: { rule: 'FREQ=DAILY', from: 'due' } },
        { remind_at: 'tomorrow' },
        { remind_at: '2026-11-23T08:00:00' },
      ]) {
        expectError(await a.c.patch(`items/${item.id}`, body), 400, 'bad_request');
      }
      expectError(await a.c.post('capture', { text: 'z', recurrence: { rule: 'FREQ=DAILY', from: 'due' } }), 400, 'bad_request');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });
  });

  describe('UNTIL that is not a real date (issue 45)', () => {
    const BAD_UNTIL = ['20261301', '20260230', '20261130T250000Z', '20261130T126000Z', '20261130T120060Z', '99999999T999999Z', '20261100'];

    it('is 400 naming recurrence on capture, PATCH and import, and stores nothing', async () => {
      const a = await berliner();
      const item = await capture(a.c, 'y', { due_at: '2026-11-23T08:00:00.000Z' });
      ok(await a.c.patch(`items/${item.id}`, { recurrence: { rule: 'FREQ=DAILY;UNTIL=20261231T235959Z', from: 'due' } }));
      const exported = JSON.parse((await a.c.get('export')).text);
      const b = await actor(t);
      ok(await b.c.get('me'));
      const before = await fingerprint(t.services.db);
      for (const until of BAD_UNTIL) {
        const recurrence = { rule: `FREQ=DAILY;UNTIL=${until}`, from: 'due' };
        for (const res of [
          await a.c.post('capture', { text: 'z', due_at: '2026-11-23T08:00:00.000Z', recurrence }),
          await a.c.patch(`items/${item.id}`, { recurrence }),
        ]) {
          expectError(res, 400, 'bad_request');
          expect(res.body.details, until).toEqual([{ field: 'recurrence.rule', message: expect.stringContaining('UNTIL') }]);
        }
        const doc = structuredClone(exported);
        doc.items.find((i: JsonBody) => i.id === item.id).recurrence = recurrence;
        const imported = await b.c.post('import', doc);
        expectError(imported, 400, 'bad_request');
        expect(imported.body.message, until).toContain('UNTIL');
      }
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('takes real dates: 29 February of a leap year, a date alone, a UTC date-time', async () => {
      const a = await berliner();
      for (const until of ['20280229', '20261231', '20261231T235959Z']) {
        const item = await capture(a.c, 'z', { due_at: '2026-11-23T08:00:00.000Z', recurrence: { rule: `FREQ=DAILY;UNTIL=${until}`, from: 'due' } });
        expect(item.recurrence.rule).toBe(`FREQ=DAILY;UNTIL=${until}`);
      }
    });
  });

  describe('quick add and the default reminder', () => {
    it('capture with parse stores the recurrence; reminder_default sets remind_at before due_at', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const a = await berliner();
      expect(ok(await a.c.patch('me', { reminder_default: 15 })).reminder_default).toBe(15);
      const item = await capture(a.c, 'Standup every weekday 9am', { parse: true });
      expect(item).toMatchObject({
        title: 'Standup',
        due_at: '2026-11-23T08:00:00.000Z',
        remind_at: '2026-11-23T07:45:00.000Z',
        recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from: 'due' },
      });
      expectError(await a.c.patch('me', { reminder_default: 10081 }), 400, 'bad_request');
    });
  });
});
