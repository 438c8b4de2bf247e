import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ITEM_FIELDS, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type Client, type JsonBody, type TestApp } from '../helpers/test-app.js';

const ids = (items: { id: string }[]): string[] => items.map((i) => i.id);

/** Follows next_cursor to the end; every page but the last is full and no page is empty. */
async function allPages(c: Client, query: string, limit: number): Promise<{ pages: JsonBody[][]; ids: string[] }> {
  const pages: JsonBody[][] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const url: string = `items?${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const body = ok(await c.get(url));
    expect(body.items.length, `page ${pages.length + 1} of ${url}`).toBeGreaterThan(0);
    pages.push(body.items);
    cursor = body.next_cursor;
    if (cursor !== null) expect(body.items).toHaveLength(limit);
    expect(pages.length).toBeLessThan(1000);
  } while (cursor !== null);
  return { pages, ids: pages.flat().map((i: { id: string }) => i.id) };
}

describe.each(DIALECTS)('items list (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Captures n items one millisecond apart; answers their ids, oldest first. */
  async function captureMany(a: Actor, n: number, step = 1): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < n; i += 1) {
      t.clock.advance(step);
      out.push((await capture(a.c, `item ${i}`)).id);
    }
    return out;
  }

  describe('GET /api/v1/items', () => {
    it('answers { items, next_cursor } newest created first', async () => {
      const a = await actor(t);
      const created = await captureMany(a, 3, 1000);
      const body = ok(await a.c.get('items'));
      expect(Object.keys(body).sort()).toEqual(['items', 'next_cursor']);
      expect(ids(body.items)).toEqual([...created].reverse());
      expect(body.next_cursor).toBeNull();
      for (const item of body.items) {
        expect(Object.keys(item).sort()).toEqual(ITEM_FIELDS);
        expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
      }
    });

    it("lists only the caller's items", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const mine = await captureMany(a, 2);
      await captureMany(b, 2);
      expect(ids(ok(await a.c.get('items')).items).sort()).toEqual([...mine].sort());
    });

    it('includes archived and completed items', async () => {
      const a = await actor(t);
      const [open, done, archived, doneArchived] = await captureMany(a, 4);
      ok(await a.c.post(`items/${done}/toggle`));
      ok(await a.c.post(`items/${archived}/archive`));
      ok(await a.c.post(`items/${doneArchived}/toggle`));
      ok(await a.c.post(`items/${doneArchived}/archive`));
      const body = ok(await a.c.get('items'));
      expect(ids(body.items)).toEqual([doneArchived, archived, done, open]);
      expect(body.items.map((i: JsonBody) => [i.status, i.is_completed])).toEqual([
        ['archived', true],
        ['archived', false],
        ['done', true],
        ['todo', false],
      ]);
    });

    describe('limit and cursor', () => {
      let a: Actor;
      let newestFirst: string[];
      beforeAll(async () => {
        a = await actor(t);
        newestFirst = (await captureMany(a, 205)).reverse();
      });

      it('defaults limit to 50', async () => {
        const body = ok(await a.c.get('items'));
        expect(ids(body.items)).toEqual(newestFirst.slice(0, 50));
        expect(body.next_cursor).toEqual(expect.any(String));
      });

      it('clamps limit above 200 to 200', async () => {
        const body = ok(await a.c.get('items?limit=5000'));
        expect(ids(body.items)).toEqual(newestFirst.slice(0, 200));
        expect(body.next_cursor).toEqual(expect.any(String));
        expect(ids(ok(await a.c.get('items?limit=200')).items)).toEqual(newestFirst.slice(0, 200));
      });

      it.each(['0', '-1', '1.5', 'abc', ''])('answers 400 for limit=%s', async (limit) => {
        expectError(await a.c.get(`items?limit=${limit}`), 400, 'bad_request');
      });

      it('pages through every item exactly once, newest first', async () => {
        const { pages, ids: seen } = await allPages(a.c, '', 50);
        expect(pages.map((p) => p.length)).toEqual([50, 50, 50, 50, 5]);
        expect(seen).toEqual(newestFirst);
      });

      it('gives next_cursor null on a last page that is exactly full, never an empty page', async () => {
        const { pages, ids: seen } = await allPages(a.c, '', 41);
        expect(pages.map((p) => p.length)).toEqual([41, 41, 41, 41, 41]);
        expect(seen).toEqual(newestFirst);
      });

      it('keeps paging stable when items share created_at', async () => {
        const b = await actor(t);
        const same = await captureMany(b, 23, 0);
        const { ids: seen } = await allPages(b.c, '', 5);
        expect(new Set(seen).size).toBe(23);
        expect([...seen].sort()).toEqual([...same].sort());
      });

      it.each([
        ['garbage', 'not a cursor!'],
        ['not base64url JSON', 'abc'],
        ['well-formed base64url of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
      ])('answers 400 for a %s cursor', async (_name, cursor) => {
        expectError(await a.c.get(`items?cursor=${encodeURIComponent(cursor)}`), 400, 'bad_request');
      });

      it('answers 400 for a cursor of the since feed used without since', async () => {
        const feed = ok(await a.c.get(`items?since=${encodeURIComponent('2000-01-01T00:00:00Z')}&limit=10`));
        expect(feed.next_cursor).toEqual(expect.any(String));
        expectError(await a.c.get(`items?cursor=${feed.next_cursor}`), 400, 'bad_request');
      });

      it('answers 400 for a cursor of the newest-first list used with since', async () => {
        const list = ok(await a.c.get('items?limit=10'));
        expectError(await a.c.get(`items?since=2000-01-01T00:00:00Z&cursor=${list.next_cursor}`), 400, 'bad_request');
      });
    });

    describe('since (sync feed)', () => {
      it('answers items with updated_at >= since, oldest updated first', async () => {
        const a = await actor(t);
        const [first, second, third] = await captureMany(a, 3, 1000);
        const secondItem = ok(await a.c.get(`items/${second}`));
        const body = ok(await a.c.get(`items?since=${encodeURIComponent(secondItem.updated_at)}`));
        expect(ids(body.items)).toEqual([second, third]);
        expect(body.next_cursor).toBeNull();
        expect(ids(ok(await a.c.get('items?since=2000-01-01T00:00:00Z')).items)).toEqual([first, second, third]);
      });

      it('moves an item updated later to the end', async () => {
        const a = await actor(t);
        const [first, second, third] = await captureMany(a, 3, 1000);
        t.clock.advance(1000);
        ok(await a.c.patch(`items/${first}`, { title: 'changed' }));
        t.clock.advance(1000);
        ok(await a.c.post(`items/${second}/toggle`));
        expect(ids(ok(await a.c.get('items?since=2000-01-01T00:00:00Z')).items)).toEqual([third, first, second]);
      });

      it('accepts since with any offset', async () => {
        const a = await actor(t);
        const [, later] = await captureMany(a, 2, 60_000);
        const at = new Date(ok(await a.c.get(`items/${later}`)).updated_at);
        const plusTwo = new Date(at.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
        expect(ids(ok(await a.c.get(`items?since=${encodeURIComponent(plusTwo)}`)).items)).toEqual([later]);
      });

      it('includes archived and completed items', async () => {
        const a = await actor(t);
        const [archived, done] = await captureMany(a, 2);
        ok(await a.c.post(`items/${archived}/archive`));
        ok(await a.c.post(`items/${done}/toggle`));
        expect(ids(ok(await a.c.get('items?since=2000-01-01T00:00:00Z')).items).sort()).toEqual([archived, done].sort());
      });

      it('pages the feed oldest updated first, each item exactly once', async () => {
        const a = await actor(t);
        const created = await captureMany(a, 24);
        const { pages, ids: seen } = await allPages(a.c, 'since=2000-01-01T00:00:00Z', 8);
        expect(pages.map((p) => p.length)).toEqual([8, 8, 8]);
        expect(seen).toEqual(created);
      });

      it.each(['2026-11-21T10:00:00', '2026-11-21', 'yesterday'])('answers 400 for since=%s', async (since) => {
        const a = await actor(t);
        expectError(await a.c.get(`items?since=${encodeURIComponent(since)}`), 400, 'bad_request');
      });
    });
  });

  describe('GET /api/v1/items/{id}', () => {
    it('answers 200 with the item', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'Read me');
      const body = ok(await a.c.get(`items/${item.id}`));
      expect(body).toEqual(item);
      expect(Object.keys(body).sort()).toEqual(ITEM_FIELDS);
    });

    it('answers 404 for an unknown id', async () => {
      const a = await actor(t);
      expectError(await a.c.get(`items/${UNKNOWN_ID}`), 404, 'not_found');
    });

    it('answers 404 for a malformed id', async () => {
      const a = await actor(t);
      expectError(await a.c.get('items/not-a-uuid'), 404, 'not_found');
    });

    it("answers 404 for another user's item", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const item = await capture(b.c, 'Private');
      expectError(await a.c.get(`items/${item.id}`), 404, 'not_found');
    });
  });
});
