import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type Client, type JsonBody, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('tags (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newApi(): Promise<Client> {
    return client(t.app, (await createUser(t)).token);
  }

  async function capture(api: Client, text: string): Promise<JsonBody> {
    t.clock.advance(1000);
    const res = await api.post('capture', { text });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function tag(api: Client, itemId: string, tags: string[]): Promise<JsonBody> {
    const res = await api.patch(`items/${itemId}`, { tags });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function countOf(api: Client, name: string): Promise<number> {
    const found = (await api.get('tags')).body.find((entry: JsonBody) => entry.name === name);
    return found ? found.item_count : 0;
  }

  describe('GET /api/v1/tags', () => {
    it('answers an empty array for a new user', async () => {
      const api = await newApi();
      const res = await api.get('tags');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('lists tags created by PATCH /items/{id} { tags } as [{ name, item_count }]', async () => {
      const api = await newApi();
      const item = await capture(api, 'buy milk');
      const patched = await tag(api, item.id, ['errands', 'Home']);
      expect(patched.tags).toEqual(['errands', 'Home']);
      const res = await api.get('tags');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { name: 'errands', item_count: 1 },
        { name: 'Home', item_count: 1 },
      ]);
      for (const entry of res.body) expect(Object.keys(entry).sort()).toEqual(['item_count', 'name']);
    });

    it('sorts tags case-insensitively by name', async () => {
      const api = await newApi();
      const item = await capture(api, 'sorting');
      await tag(api, item.id, ['Zebra', 'apple', 'Mango', 'banana', 'Cherry']);
      const names = (await api.get('tags')).body.map((entry: JsonBody) => entry.name);
      expect(names).toEqual(['apple', 'banana', 'Cherry', 'Mango', 'Zebra']);
    });

    it('keeps the first spelling of a tag: "Work" then "work" is one tag "Work"', async () => {
      const api = await newApi();
      const first = await capture(api, 'first');
      const second = await capture(api, 'second');
      await tag(api, first.id, ['Work']);
      const patched = await tag(api, second.id, ['work']);
      expect(patched.tags).toEqual(['Work']);
      expect((await api.get('tags')).body).toEqual([{ name: 'Work', item_count: 2 }]);
      expect((await api.get(`items/${first.id}`)).body.tags).toEqual(['Work']);
    });

    it('stores one tag for names that differ only in case or surrounding whitespace in one request', async () => {
      const api = await newApi();
      const item = await capture(api, 'dupes');
      const patched = await tag(api, item.id, ['Home', 'HOME', ' home ']);
      expect(patched.tags).toEqual(['Home']);
      expect((await api.get('tags')).body).toEqual([{ name: 'Home', item_count: 1 }]);
    });

    it('counts the items carrying each tag', async () => {
      const api = await newApi();
      const items = [await capture(api, 'a'), await capture(api, 'b'), await capture(api, 'c')];
      for (const item of items) await tag(api, item.id, ['shared']);
      await tag(api, items[0].id, ['shared', 'solo']);
      expect((await api.get('tags')).body).toEqual([
        { name: 'shared', item_count: 3 },
        { name: 'solo', item_count: 1 },
      ]);
    });

    it('counts archived and completed items, and drops items whose tags are replaced or that are deleted', async () => {
      const api = await newApi();
      const [a, b, c, d] = [await capture(api, 'a'), await capture(api, 'b'), await capture(api, 'c'), await capture(api, 'd')];
      for (const item of [a, b, c, d]) await tag(api, item.id, ['Later']);
      await api.post(`items/${a.id}/archive`);
      await api.post(`items/${b.id}/toggle`);
      expect(await countOf(api, 'Later')).toBe(4);

      await tag(api, c.id, []);
      expect((await api.get(`items/${c.id}`)).body.tags).toEqual([]);
      expect(await countOf(api, 'Later')).toBe(3);

      expect((await api.delete(`items/${d.id}`)).status).toBe(204);
      expect(await countOf(api, 'Later')).toBe(2);
    });

    it('keeps the original spelling when a later PATCH replaces the set with another case', async () => {
      const api = await newApi();
      const item = await capture(api, 'respell');
      await tag(api, item.id, ['Urgent']);
      const patched = await tag(api, item.id, ['URGENT', 'new']);
      expect(patched.tags).toEqual(['new', 'Urgent']);
      expect((await api.get('tags')).body).toEqual([
        { name: 'new', item_count: 1 },
        { name: 'Urgent', item_count: 1 },
      ]);
    });
  });
});
