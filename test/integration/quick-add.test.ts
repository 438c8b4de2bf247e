import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, expectError, ok, type Actor } from '../helpers/items.js';
import { UNLIMITED, client, createTestApp, type TestApp } from '../helpers/test-app.js';

/** Contract "Quick add": POST /parse and capture with parse, through HTTP. */
describe.each(DIALECTS)('quick add (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // 2026-11-21T10:00:00Z, a Saturday: 11:00 in Berlin. Two organizer runs a day, to show /parse spends none.
    t = await createTestApp(dialect, { limits: { ...UNLIMITED, aiDailyQuota: 2 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function berliner(plan: 'free' | 'pro' = 'free'): Promise<Actor & { work: string }> {
    const a = await actor(t, plan);
    ok(await a.c.patch('me', { timezone: 'Europe/Berlin' }));
    const { id } = ok(await a.c.post('projects', { name: 'Work' }));
    await a.events.take();
    return { ...a, work: id as string };
  }

  describe('POST /api/v1/parse', () => {
    it('answers the fields and the spans on the Free plan, and stores nothing', async () => {
      const a = await berliner();
      const text = 'Call Sam tomorrow 5pm #Work @calls\nbring the contract';
      const body = ok(await a.c.post('parse', { text }));
      expect(body).toEqual({
        title: 'Call Sam',
        content_md: 'bring the contract',
        due_at: '2026-11-22T16:00:00.000Z',
        all_day: false,
        project_id: a.work,
        tags: ['calls'],
        recurrence: null,
        spans: [
          { kind: 'date', start: 9, end: 21, text: 'tomorrow 5pm', value: '2026-11-22T16:00:00.000Z' },
          { kind: 'project', start: 22, end: 27, text: '#Work', value: a.work },
          { kind: 'tag', start: 28, end: 34, text: '@calls', value: 'calls' },
        ],
      });
      expect(ok(await a.c.get('items')).items).toEqual([]);
      expect(ok(await a.c.get('tags'))).toEqual([]);
      expect(await a.events.take()).toEqual([]);
    });

    it('answers recurrence as an RRULE, its first occurrence as due_at, and leaves unknown #names in the title', async () => {
      const a = await berliner();
      const body = ok(await a.c.post('parse', { text: 'Standup every! weekday 9am #Errands' }));
      expect(body).toMatchObject({
        title: 'Standup #Errands',
        project_id: null,
        tags: [],
        due_at: '2026-11-23T08:00:00.000Z',
        recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from: 'completion' },
      });
      expect(body.spans).toEqual([{ kind: 'recurrence', start: 8, end: 26, text: 'every! weekday 9am', value: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' }]);
    });

    it('refuses empty and over-long text as capture does; nothing else in the text can fail it', async () => {
      const a = await berliner();
      expectError(await a.c.post('parse', { text: '' }), 400, 'bad_request');
      expectError(await a.c.post('parse', { text: ' \n ' }), 400, 'bad_request');
      expectError(await a.c.post('parse', {}), 400, 'bad_request');
      expectError(await a.c.post('parse', { text: 'x'.repeat(100001) }), 400, 'bad_request');
      for (const text of ['#', '@', 'every', '#"', 'every month on the 99th', `${'#x @y '.repeat(200)}`, '😀'.repeat(600)]) {
        expect((await a.c.post('parse', { text })).status, text.slice(0, 20)).toBe(200);
      }
    });

    it('needs the capture scope, and spends no organizer quota', async () => {
      const a = await berliner('pro');
      expect((await client(t.app).post('parse', { text: 'x' })).status).toBe(401);
      const reader = await t.services.keys.mint(a.user.id, 'reader', { scopes: ['read'] });
      expect((await client(t.app, reader.token).post('parse', { text: 'x' })).status).toBe(403);
      const capturer = await t.services.keys.mint(a.user.id, 'capturer', { scopes: ['capture'] });
      for (let i = 0; i < 3; i += 1) ok(await client(t.app, capturer.token).post('parse', { text: `call ${i} tomorrow` }));
      // The day's two organizer runs are still there.
      ok(await a.c.post('capture', { text: 'pay rent friday', organize: true }), 201);
      ok(await a.c.post('capture', { text: 'pay rent friday', organize: true }), 201);
      expect((await a.c.post('capture', { text: 'pay rent friday', organize: true })).status).toBe(429);
    });
  });

  describe('POST /api/v1/capture with parse and tags', () => {
    it('stores what /parse answers, on the Free plan, in one item.created event', async () => {
      const a = await berliner();
      const text = 'Call Sam tomorrow 5pm #Work @calls';
      const parsed = ok(await a.c.post('parse', { text }));
      const { ai, ...item } = ok(await a.c.post('capture', { text, parse: true }), 201);
      expect(ai).toBeNull();
      expect(item).toMatchObject({ title: parsed.title, due_at: parsed.due_at, project_id: a.work, tags: ['calls'], type: 'todo', content_md: null });
      expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(['item.created']);
      expect(events[0]!.data.item).toEqual(item);
      expect(ok(await a.c.get('tags'))).toEqual([{ name: 'calls', item_count: 1 }]);
    });

    it('without parse stores the text as typed', async () => {
      const a = await berliner();
      const item = ok(await a.c.post('capture', { text: 'Call Sam tomorrow 5pm #Work @calls' }), 201);
      expect(item).toMatchObject({ title: 'Call Sam tomorrow 5pm #Work @calls', due_at: null, tags: [] });
    });

    it('lets explicit project_id, due_at, type and tags win over what the text says', async () => {
      const a = await berliner();
      const home = ok(await a.c.post('projects', { name: 'Home' })).id as string;
      const item = ok(
        await a.c.post('capture', {
          text: 'Fix the door tomorrow 5pm #Work @calls',
          parse: true,
          project_id: home,
          due_at: '2026-12-01T10:00:00.000Z',
          type: 'note',
          tags: ['house', 'House', 'diy'],
        }),
        201,
      );
      expect(item).toMatchObject({ title: 'Fix the door', project_id: home, due_at: '2026-12-01T10:00:00.000Z', type: 'note', tags: ['diy', 'house'] });
    });

    it('takes tags without parse, and refuses bad tag names with 400', async () => {
      const a = await berliner();
      const item = ok(await a.c.post('capture', { text: 'plain @text', tags: ['one', 'Two'] }), 201);
      expect(item).toMatchObject({ title: 'plain @text', tags: ['one', 'Two'] });
      expectError(await a.c.post('capture', { text: 'x', tags: ['a,b'] }), 400, 'bad_request');
      expectError(await a.c.post('capture', { text: 'x', tags: ['   '] }), 400, 'bad_request');
      expect(ok(await a.c.get('items')).items.length).toBe(1);
    });

    it('with organize too, runs the grammar first and lets the organizer fill what it left', async () => {
      const a = await berliner('pro');
      const body = ok(await a.c.post('capture', { text: 'idea: game night with the neighbours friday @fun', parse: true, organize: true }), 201);
      // The grammar read the tag and the date; the organizer chose the type.
      expect(body).toMatchObject({
        title: 'idea: game night with the neighbours',
        tags: ['fun'],
        due_at: '2026-11-26T23:00:00.000Z',
        project_id: a.user.inboxId,
      });
      expect(body.ai).toMatchObject({ engine: 'local', type: body.type });
      const filed = ok(await a.c.post('capture', { text: 'Call Sam tomorrow 5pm #Work', parse: true, organize: true }), 201);
      expect(filed).toMatchObject({ title: 'Call Sam', project_id: a.work, type: 'todo', due_at: '2026-11-22T16:00:00.000Z' });
    });

    it('replays a client_id with the first item, whatever the text says now', async () => {
      const a = await berliner();
      const clientId = '0190f5e2-7c3a-7b1d-9e2f-000000000030';
      const first = ok(await a.c.post('capture', { text: 'Pay rent friday @home', parse: true, client_id: clientId }), 201);
      const again = ok(await a.c.post('capture', { text: 'Pay rent friday @home', parse: true, client_id: clientId }), 200);
      expect(again).toEqual(first);
      expect(first).toMatchObject({ title: 'Pay rent', tags: ['home'] });
    });
  });
});
