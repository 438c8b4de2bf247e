import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, expectConsistent, expectError, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { client, createTestApp, UNLIMITED, type JsonBody, type TestApp } from '../helpers/test-app.js';

/** Contract "Brain dump": POST /parse with split and POST /capture/batch, through HTTP. */
describe.each(DIALECTS)('brain dump (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: UNLIMITED });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function userWithHome(): Promise<Actor & { home: string }> {
    const a = await actor(t);
    const { id } = ok(await a.c.post('projects', { name: 'Home' }));
    await a.events.take();
    return { ...a, home: id as string };
  }

  const LIST = 'Weekend #Home @errand:\n  - milk tomorrow\n  - [x] mail the form @post\n1. call mom; soon\n[X] done already';

  describe('POST /api/v1/parse with split', () => {
    it('answers the items in text order with parent_index, is_completed and spans over the whole text; stores nothing', async () => {
      const a = await userWithHome();
      const before = await fingerprint(t.services.db);
      const { items } = ok(await a.c.post('parse', { text: LIST, split: true }));
      expect(items.map((i: JsonBody) => [i.title, i.project_id, i.tags, i.parent_index, i.is_completed])).toEqual([
        ['Weekend', a.home, ['errand'], null, false],
        ['milk', a.home, ['errand'], 0, false],
        ['mail the form', a.home, ['errand', 'post'], 0, true],
        ['call mom; soon', null, [], null, false],
        ['done already', null, [], null, true],
      ]);
      expect(items[1].due_at).not.toBeNull();
      for (const item of items) for (const span of item.spans) expect(LIST.slice(span.start, span.end)).toBe(span.text);
      expect(items[2].spans).toEqual([{ kind: 'tag', start: LIST.indexOf('@post'), end: LIST.indexOf('@post') + 5, text: '@post', value: 'post' }]);
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('splits a one-line text at "; " and leaves prose one item; without split answers one reading as before', async () => {
      const a = await userWithHome();
      expect(ok(await a.c.post('parse', { text: 'buy milk; call mom tomorrow; fix bike', split: true })).items.map((i: JsonBody) => i.title)).toEqual([
        'buy milk',
        'call mom',
        'fix bike',
      ]);
      const prose = 'I need to buy milk and then I should call mom because it has been a while.';
      expect(ok(await a.c.post('parse', { text: prose, split: true })).items).toHaveLength(1);
      expect(ok(await a.c.post('parse', { text: 'a\nb' })).title).toBe('a');
    });

    it('refuses more than 100 items with 400 naming the limit', async () => {
      const a = await userWithHome();
      const res = await a.c.post('parse', { text: Array.from({ length: 101 }, (_, i) => `- item ${i}`).join('\n'), split: true });
      expectError(res, 400, 'bad_request');
      expect(res.body.message).toContain('100');
    });
  });

  describe('POST /api/v1/capture/batch', () => {
    it('stores exactly what the preview shows, parents before children, [x] completed, one item.created each', async () => {
      const a = await userWithHome();
      const preview = ok(await a.c.post('parse', { text: LIST, split: true })).items;
      const { items } = ok(await a.c.post('capture/batch', { text: LIST }), 201);
      expect(items).toHaveLength(5);
      items.forEach((item: JsonBody, i: number) => {
        const seen = preview[i];
        expect([item.title, item.project_id ?? null, item.due_at, item.is_completed]).toEqual([
          seen.title,
          seen.project_id ?? items[i].project_id,
          seen.due_at,
          seen.is_completed,
        ]);
        expect(item.tags).toEqual([...seen.tags].sort());
        expect(item.parent_id).toBe(seen.parent_index === null ? null : items[seen.parent_index].id);
        expectConsistent(item);
      });
      expect(items[2].status).toBe('done');
      // The items that name no project went to the Inbox.
      const inbox = ok(await a.c.get('projects')).projects.find((p: JsonBody) => p.name === 'Inbox').id;
      expect(items[3].project_id).toBe(inbox);
      const events = await a.events.take();
      expect(events.map((e) => [e.event, (e.data as { item: { id: string } }).item.id])).toEqual(items.map((i: JsonBody) => ['item.created', i.id]));
      // Stored: the list reads them back.
      for (const item of items)
        expect(ok(await a.c.get(`items/${item.id}`))).toMatchObject({ title: item.title, parent_id: item.parent_id, is_completed: item.is_completed });
    });

    it('applies project_id to items that name none and adds tags to each item', async () => {
      const a = await userWithHome();
      const { id: work } = ok(await a.c.post('projects', { name: 'Work' }));
      const { items } = ok(await a.c.post('capture/batch', { text: '- report #Home @big\n- slides', project_id: work, tags: ['q4'] }), 201);
      expect(items.map((i: JsonBody) => [i.title, i.project_id, i.tags])).toEqual([
        ['report', a.home, ['big', 'q4']],
        ['slides', work, ['q4']],
      ]);
    });

    it('with parse: false stores each line as typed', async () => {
      const a = await userWithHome();
      const { items } = ok(await a.c.post('capture/batch', { text: '- call mom tomorrow #Home\n- [x] done', parse: false }), 201);
      expect(items.map((i: JsonBody) => [i.title, i.due_at, i.is_completed])).toEqual([
        ['call mom tomorrow #Home', null, false],
        ['done', null, true],
      ]);
    });

    it('refuses over 100 items, an unknown project and bad tags with nothing stored', async () => {
      const a = await userWithHome();
      const before = await fingerprint(t.services.db);
      const many = await a.c.post('capture/batch', { text: Array.from({ length: 101 }, (_, i) => `item ${i}`).join('\n') });
      expectError(many, 400, 'bad_request');
      expect(many.body.message).toContain('at most 100 items');
      expectError(await a.c.post('capture/batch', { text: 'a\nb', project_id: UNKNOWN_ID }), 404, 'not_found');
      expectError(await a.c.post('capture/batch', { text: 'a\nb', tags: ['a,b'] }), 400, 'bad_request');
      expectError(await a.c.post('capture/batch', { text: ' \n ' }), 400, 'bad_request');
      expect(await fingerprint(t.services.db)).toEqual(before);
      ok(await a.c.post('capture/batch', { text: Array.from({ length: 100 }, (_, i) => `item ${i}`).join('\n') }), 201);
    });

    it('replays one Idempotency-Key for the whole batch and counts as one request against the limits', async () => {
      const a = await userWithHome();
      const headers = { 'idempotency-key': 'dump-1' };
      const first = await a.c.post('capture/batch', { text: 'a\nb\nc' }, headers);
      expect(first.status).toBe(201);
      const again = await a.c.post('capture/batch', { text: 'a\nb\nc' }, headers);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(ok(await a.c.get('items')).items).toHaveLength(3);
      // Fifty items, one request: the minute's budget drops by one.
      const remaining = Number(again.headers['x-ratelimit-remaining']);
      const batch = await a.c.post('capture/batch', { text: Array.from({ length: 50 }, (_, i) => `x ${i}`).join('\n') });
      expect(Number(batch.headers['x-ratelimit-remaining'])).toBe(remaining - 2);
    });

    it('needs the capture scope', async () => {
      const a = await userWithHome();
      expect((await client(t.app).post('capture/batch', { text: 'a\nb' })).status).toBe(401);
      const reader = await t.services.keys.mint(a.user.id, 'reader', { scopes: ['read'] });
      expect((await client(t.app, reader.token).post('capture/batch', { text: 'a\nb' })).status).toBe(403);
      const capturer = await t.services.keys.mint(a.user.id, 'capturer', { scopes: ['capture'] });
      ok(await client(t.app, capturer.token).post('capture/batch', { text: 'a\nb' }), 201);
    });
  });
});
