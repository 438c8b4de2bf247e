import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import { UNLIMITED, createTestApp, type TestApp } from '../helpers/test-app.js';

/** The local engine through HTTP: capture with organize: true and POST /items/{id}/organize. */
describe.each(DIALECTS)('organizer routes (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // 2026-11-21T10:00:00Z, a Saturday: 11:00 in Berlin.
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function berliner(): Promise<Actor> {
    const a = await actor(t, 'pro');
    ok(await a.c.patch('me', { timezone: 'Europe/Berlin' }));
    return a;
  }

  async function project(a: Actor, name: string, titles: string[]): Promise<string> {
    const { id } = ok(await a.c.post('projects', { name }));
    for (const title of titles) await capture(a.c, title, { project_id: id });
    return id as string;
  }

  describe('POST /api/v1/capture with organize: true', () => {
    it('reads the due date in the user zone, cuts it from the title and says so in ai', async () => {
      const a = await berliner();
      const body = ok(await a.c.post('capture', { text: 'call mom tomorrow at 5pm\nshe asked about Christmas', organize: true }), 201);
      expect(body).toMatchObject({
        title: 'call mom',
        content_md: 'she asked about Christmas',
        type: 'todo',
        status: 'todo',
        project_id: a.user.inboxId,
        due_at: '2026-11-22T16:00:00.000Z',
      });
      expect(body.ai).toEqual({
        engine: 'local',
        type: 'todo',
        project_id: null,
        due_at: '2026-11-22T16:00:00.000Z',
        all_day: false,
        title: 'call mom',
        reason: 'nothing like it in your projects',
        applied: ['due_at', 'title'],
      });
      const { ai: _ai, ...item } = body;
      expect(ok(await a.c.get(`items/${body.id}`))).toEqual(item);
    });

    it('writes one item.created event that carries the organized item', async () => {
      const a = await berliner();
      const { ai: _ai, ...item } = ok(await a.c.post('capture', { text: 'pay rent friday', organize: true }), 201);
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(['item.created']);
      expect(events[0]!.data.item).toEqual(item);
      expect(item).toMatchObject({ title: 'pay rent', due_at: '2026-11-26T23:00:00.000Z' });
    });

    it('routes to an existing project by #Name, by "for name" and by similarity to its items', async () => {
      const a = await berliner();
      const work = await project(a, 'Work', ['review PR for the billing service', 'fix flaky integration test in CI', 'deploy the search API']);
      const garden = await project(a, 'Garden', ['plant tulip bulbs', 'mow the lawn', 'prune the rose bushes']);
      await a.events.take();

      const tagged = ok(await a.c.post('capture', { text: 'prepare slides #Work', organize: true }), 201);
      expect(tagged).toMatchObject({ project_id: work, title: 'prepare slides' });
      expect(tagged.ai).toMatchObject({ project_id: work, applied: ['project_id', 'title'] });

      const mention = ok(await a.c.post('capture', { text: 'order seeds for the garden', organize: true }), 201);
      expect(mention).toMatchObject({ project_id: garden, title: 'order seeds for the garden' });
      expect(mention.ai.applied).toEqual(['project_id']);

      const similar = ok(await a.c.post('capture', { text: 'review PR for the auth service', organize: true }), 201);
      expect(similar.project_id).toBe(work);
    });

    it('leaves an item that matches no project in the Inbox, with ai.project_id null', async () => {
      const a = await berliner();
      await project(a, 'Garden', ['plant tulip bulbs', 'mow the lawn']);
      const body = ok(await a.c.post('capture', { text: 'call grandma', organize: true }), 201);
      expect(body.project_id).toBe(a.user.inboxId);
      expect(body.ai).toMatchObject({ project_id: null, applied: [] });
    });

    it('classifies notes: type note, status backlog, and no due date for notes about the past', async () => {
      const a = await berliner();
      const idea = ok(await a.c.post('capture', { text: 'idea: monthly game night with the neighbours', organize: true }), 201);
      expect(idea).toMatchObject({ type: 'note', status: 'backlog', due_at: null });
      expect(idea.ai.applied).toEqual(['type']);
      const past = ok(await a.c.post('capture', { text: "notes from tuesday's meeting", organize: true }), 201);
      expect(past).toMatchObject({ type: 'note', due_at: null, title: "notes from tuesday's meeting" });
    });

    it('does not read "2nd floor" or May the name as dates', async () => {
      const a = await berliner();
      for (const text of ['meet Priya on the 2nd floor', 'ask May about the budget']) {
        const body = ok(await a.c.post('capture', { text, organize: true }), 201);
        expect(body).toMatchObject({ title: text, due_at: null });
      }
    });

    it('never overrides explicit type, project_id and due_at, and keeps the title as typed with an explicit due_at', async () => {
      const a = await berliner();
      const work = await project(a, 'Work', ['review PR for the billing service']);
      const body = ok(
        await a.c.post('capture', {
          text: 'idea: call mom tomorrow at 5pm #Work',
          type: 'todo',
          project_id: a.user.inboxId,
          due_at: '2026-12-01T10:00:00+01:00',
          organize: true,
        }),
        201,
      );
      expect(body).toMatchObject({
        type: 'todo',
        status: 'todo',
        project_id: a.user.inboxId,
        due_at: '2026-12-01T09:00:00.000Z',
        title: 'idea: call mom tomorrow at 5pm #Work',
      });
      expect(body.ai).toMatchObject({ type: 'todo', project_id: a.user.inboxId, due_at: '2026-12-01T09:00:00.000Z', applied: [] });
      expect(body.project_id).not.toBe(work);
    });

    it('an explicit project_id keeps the item there even when the text names another project', async () => {
      const a = await berliner();
      const work = await project(a, 'Work', ['standup notes']);
      const home = await project(a, 'Home', ['vacuum the stairs']);
      const body = ok(await a.c.post('capture', { text: 'fix the door #Work friday', project_id: home, organize: true }), 201);
      expect(body).toMatchObject({ project_id: home, title: 'fix the door', due_at: '2026-11-26T23:00:00.000Z' });
      expect(body.ai.project_id).toBe(home);
      expect(body.ai.applied).toEqual(['due_at', 'all_day', 'title']);
      expect(body.project_id).not.toBe(work);
    });

    it('a replayed client_id returns the first item with ai null and runs nothing', async () => {
      const limited = await createTestApp(dialect, { limits: { ...UNLIMITED, aiDailyQuota: 1 } });
      try {
        const a = await actor(limited, 'pro');
        const clientId = '0190a6f4-8c00-7000-8000-00000000aaaa';
        const first = ok(await a.c.post('capture', { text: 'pay rent friday', client_id: clientId, organize: true }), 201);
        const again = ok(await a.c.post('capture', { text: 'pay rent friday', client_id: clientId, organize: true }), 200);
        expect(again).toMatchObject({ id: first.id, ai: null });
      } finally {
        await limited.close();
      }
    });
  });

  describe('POST /api/v1/items/{id}/organize', () => {
    it('organizes a stored item in one update with one item.updated event, and answers the item with ai', async () => {
      const a = await berliner();
      const home = await project(a, 'Home', ['vacuum the stairs', 'fix the leaking kitchen faucet', 'replace the furnace filter']);
      const item = await capture(a.c, 'fix the leaking bathroom faucet tomorrow');
      await a.events.take();
      t.clock.advance(60_000);
      const body = ok(await a.c.post(`items/${item.id}/organize`));
      expect(body).toMatchObject({
        id: item.id,
        project_id: home,
        title: 'fix the leaking bathroom faucet',
        due_at: '2026-11-21T23:00:00.000Z',
        updated_at: t.clock.now().toISOString(),
      });
      expect(body.ai).toEqual({
        engine: 'local',
        type: 'todo',
        project_id: home,
        due_at: '2026-11-21T23:00:00.000Z',
        all_day: true,
        title: 'fix the leaking bathroom faucet',
        reason: 'like 1 item in Home: leaking, faucet',
        applied: ['project_id', 'due_at', 'all_day', 'title'],
      });
      const { ai: _ai, ...view } = body;
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(['item.updated']);
      expect(events[0]!.data.item).toEqual(view);
    });

    it('emits nothing when the organizer changes nothing', async () => {
      const a = await berliner();
      const item = await capture(a.c, 'buy milk');
      await a.events.take();
      const body = ok(await a.c.post(`items/${item.id}/organize`));
      expect(body.ai.applied).toEqual([]);
      const { ai: _ai, ...view } = body;
      expect(view).toEqual(item);
      expect(await a.events.take()).toEqual([]);
    });

    it('keeps a project other than the Inbox and a due date the item already has', async () => {
      const a = await berliner();
      const work = await project(a, 'Work', ['standup notes']);
      await project(a, 'Home', ['vacuum the stairs', 'vacuum the car']);
      const item = await capture(a.c, 'vacuum the office friday', { project_id: work, due_at: '2026-11-30T12:00:00Z' });
      const body = ok(await a.c.post(`items/${item.id}/organize`));
      expect(body).toMatchObject({ project_id: work, due_at: '2026-11-30T12:00:00.000Z', title: 'vacuum the office friday' });
      expect(body.ai).toMatchObject({ project_id: work, applied: [] });
    });

    it('answers 402 to a free user and 404 for an unknown or foreign item, changing nothing', async () => {
      const free = await actor(t, 'free');
      const item = await capture(free.c, 'pay rent friday');
      await free.events.take();
      expectError(await free.c.post(`items/${item.id}/organize`), 402, 'pro_required');
      expect(ok(await free.c.get(`items/${item.id}`))).toEqual(item);
      expect(await free.events.take()).toEqual([]);
      const pro = await berliner();
      expectError(await pro.c.post(`items/${item.id}/organize`), 404, 'not_found');
      expectError(await pro.c.post('items/not-a-uuid/organize'), 404, 'not_found');
    });
  });

  describe('the AI quota', () => {
    it('allows AI_DAILY_QUOTA runs a UTC day across both routes, then 429 ai_rate_limited that changes nothing', async () => {
      const limited = await createTestApp(dialect, { limits: { ...UNLIMITED, aiDailyQuota: 2 } });
      try {
        const a = await actor(limited, 'pro');
        ok(await a.c.post('capture', { text: 'pay rent friday', organize: true }), 201);
        const item = await capture(a.c, 'call mom tomorrow');
        ok(await a.c.post(`items/${item.id}/organize`));
        await a.events.take();

        const refused = await a.c.post('capture', { text: 'buy milk tomorrow', organize: true });
        expectError(refused, 429, 'ai_rate_limited');
        // 10:00 UTC: fourteen hours to the next UTC midnight.
        expect(refused.body.retry_after).toBe(14 * 3600);
        expect(refused.headers['retry-after']).toBe(String(14 * 3600));
        expectError(await a.c.post(`items/${item.id}/organize`), 429, 'ai_rate_limited');
        expect(await a.events.take()).toEqual([]);
        expect(ok(await a.c.get('items')).items).toHaveLength(2);

        // Captures without the organizer are not AI runs.
        ok(await a.c.post('capture', { text: 'buy milk tomorrow' }), 201);
        limited.clock.set('2026-11-22T00:00:00.000Z');
        ok(await a.c.post('capture', { text: 'buy bread tomorrow', organize: true }), 201);
      } finally {
        await limited.close();
      }
    });
  });
});
