import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type Client, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * Listing items must not cost a query per item (or per tag): a page of 50 tagged items takes the
 * same, small number of queries as a page of 5.
 */
const ITEMS = 60;
const MAX_QUERIES = 5;

describe.each(DIALECTS)('queries per listing do not grow with the page (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let projectId: string;
  let parentId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const user = await createUser(t);
    api = client(t.app, user.token);
    projectId = (await api.post('projects', { name: 'Big' })).body.id;
    parentId = (await api.post('capture', { text: 'parent', project_id: projectId })).body.id;
    for (let i = 0; i < ITEMS; i += 1) {
      const item = await api.post('capture', { text: `item ${i}`, project_id: projectId });
      expect(item.status).toBe(201);
      const patched = await api.patch(`items/${item.body.id}`, { parent_id: parentId, tags: [`alpha${i % 7}`, `Beta${i % 5}`, 'gamma'] });
      expect(patched.status).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  /** Queries one GET costs, and its items (the key's last_used_at is already stamped, so auth is one read). */
  async function measure(url: string): Promise<{ queries: number; items: JsonBody[] }> {
    t.queries.reset();
    const res = await api.get(url);
    const queries = t.queries.count;
    expect(res.status, res.text).toBe(200);
    const items = (Array.isArray(res.body) ? res.body : res.body.items) as JsonBody[];
    for (const item of items) if (item.id !== parentId) expect(item.tags).toHaveLength(3);
    return { queries, items };
  }

  const listings: Array<[string, () => string]> = [
    ['GET /items', () => 'items'],
    ['GET /items?since', () => 'items?since=2020-01-01T00:00:00Z'],
    ['GET /projects/{id}/items', () => `projects/${projectId}/items`],
    ['GET /items/{id}/children', () => `items/${parentId}/children`],
    ['GET /items/search?q', () => 'items/search?q=item'],
    ['GET /items/search?q&tag&status', () => 'items/search?q=ite%20it&tag=gamma&status=todo'],
    ['GET /items/search (filters only)', () => `items/search?tag=GAMMA&project_id=${projectId}&is_completed=false`],
  ];

  it.each(listings)('%s: 50 tagged items cost as many queries as 5', async (_name, base) => {
    const url = base();
    const join = url.includes('?') ? '&' : '?';
    const small = await measure(`${url}${join}limit=5`);
    const large = await measure(`${url}${join}limit=50`);
    const one = await measure(`${url}${join}limit=1`);
    expect(small.items).toHaveLength(5);
    expect(large.items).toHaveLength(50);
    expect(large.queries).toBe(small.queries);
    expect(one.queries).toBe(small.queries);
    expect(large.queries).toBeLessThanOrEqual(MAX_QUERIES);
    expect(large.queries, "the counter sees the auth, list and tag queries").toBeGreaterThanOrEqual(3);
  });

  it('the next page costs the same as the first', async () => {
    const first = await api.get('items?limit=20');
    const cursor = first.body.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const firstCost = await measure('items?limit=20');
    const nextCost = await measure(`items?limit=20&cursor=${cursor}`);
    expect(nextCost.queries).toBe(firstCost.queries);
    const headerPage = await api.get(`items/${parentId}/children?limit=20`);
    const next = headerPage.headers['x-next-cursor'] as string;
    expect(next).toEqual(expect.any(String));
    expect((await measure(`items/${parentId}/children?limit=20&cursor=${next}`)).queries).toBe((await measure(`items/${parentId}/children?limit=20`)).queries);
    const search = await api.get('items/search?q=item&limit=20');
    expect(search.body.next_cursor).toEqual(expect.any(String));
    expect((await measure(`items/search?q=item&limit=20&cursor=${search.body.next_cursor}`)).queries).toBe((await measure('items/search?q=item&limit=20')).queries);
  });

  it('a single item with tags is a small constant too', async () => {
    const page = await measure('items?limit=1');
    t.queries.reset();
    const res = await api.get(`items/${page.items[0].id}`);
    expect(res.status).toBe(200);
    expect(t.queries.count).toBeLessThanOrEqual(MAX_QUERIES);
  });
});
