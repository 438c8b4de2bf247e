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
    expect(large.queries, 'the counter sees the auth query and the page (which reads its tags in the same statement)').toBeGreaterThanOrEqual(2);
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
    expect((await measure(`items/search?q=item&limit=20&cursor=${search.body.next_cursor}`)).queries).toBe(
      (await measure('items/search?q=item&limit=20')).queries,
    );
  });

  it('a single item with tags is a small constant too', async () => {
    const page = await measure('items?limit=1');
    t.queries.reset();
    const res = await api.get(`items/${page.items[0].id}`);
    expect(res.status).toBe(200);
    expect(t.queries.count).toBeLessThanOrEqual(MAX_QUERIES);
  });
});

/*
 * A bulk call loads, writes and records its items in batches: 100 ids cost the same number of
 * queries as 5. The count is: the key, begin, the rows (with their tag names), commit; then one
 * UPDATE … RETURNING per distinct change (it answers the rows as written, so there is no reload) and
 * the outbox insert (move also checks its project and teaches the organizer: its model read and
 * written, and the moved items' filings awaiting confirmation dropped, decision 0114: 10; delete
 * reads the subtasks and their rows and tags, and deletes instead of updating: 9).
 */
const BULK_MAX_QUERIES = 10;
/** Key, begin, rows, commit, outbox: what a bulk change costs besides its UPDATEs. */
const BULK_FIXED_QUERIES = 5;

describe.each(DIALECTS)('queries per bulk call do not grow with the ids (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let targetId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const user = await createUser(t);
    api = client(t.app, user.token);
    targetId = (await api.post('projects', { name: 'Target' })).body.id;
  });
  afterAll(async () => t?.close());

  const bulk = (op: string, ids: string[], payload?: object) => api.post('items/bulk', { op, ids, ...(payload ? { payload } : {}) });

  /** n new items, made ready by `prepare` (a bulk call, not counted). */
  async function fresh(n: number, prepare?: { op: string; payload?: object }): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const item = await api.post('capture', { text: `bulk item ${i}` });
      expect(item.status).toBe(201);
      ids.push(item.body.id as string);
    }
    if (prepare) expect((await bulk(prepare.op, ids, prepare.payload)).body).toMatchObject({ ok: true, updated: n });
    return ids;
  }

  /** Queries of one bulk call that changes every id. */
  async function cost(op: string, ids: string[], payload?: object): Promise<number> {
    t.queries.reset();
    const res = await bulk(op, ids, payload);
    const queries = t.queries.count;
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true, updated: ids.length, failures: [] });
    return queries;
  }

  const ops: Array<[string, { op: string; payload?: object }, { op: string; payload?: object } | undefined]> = [
    ['archive', { op: 'archive' }, undefined],
    ['toggle', { op: 'toggle' }, undefined],
    ['toggle of archived items', { op: 'toggle', payload: { is_completed: true } }, { op: 'archive' }],
    ['unarchive', { op: 'unarchive' }, { op: 'archive' }],
    ['move', { op: 'move', payload: { project_id: '' } }, undefined],
    ['delete', { op: 'delete' }, undefined],
  ];

  it.each(ops)('%s of 100 ids costs as many queries as of 5', async (_name, call, prepare) => {
    const payload = call.op === 'move' ? { project_id: targetId } : call.payload;
    const small = await cost(call.op, await fresh(5, prepare), payload);
    const large = await cost(call.op, await fresh(100, prepare), payload);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(BULK_MAX_QUERIES);
  });

  it('a call that changes nothing writes nothing, whatever its size', async () => {
    const small = await fresh(5, { op: 'archive' });
    const large = await fresh(100, { op: 'archive' });
    const smallCost = await cost('archive', small);
    expect(await cost('archive', large)).toBe(smallCost);
    expect(smallCost, 'key, begin, rows, commit').toBe(4);
  });

  it('items in different states cost one UPDATE per distinct change, not per item', async () => {
    /** Open, done, archived open and archived done items, `each` of every kind, interleaved. */
    async function mixed(each: number): Promise<string[]> {
      const [open, done, archivedOpen, archivedDone] = [
        await fresh(each),
        await fresh(each, { op: 'toggle' }),
        await fresh(each, { op: 'archive' }),
        await fresh(each, { op: 'toggle' }),
      ];
      expect((await bulk('archive', archivedDone)).status).toBe(200);
      return open.flatMap((id, i) => [id, done[i]!, archivedOpen[i]!, archivedDone[i]!]);
    }
    const small = await cost('toggle', await mixed(1));
    const large = await cost('toggle', await mixed(25));
    expect(large).toBe(small);
    expect(large, 'four kinds of change, four UPDATEs').toBe(BULK_FIXED_QUERIES + 4);
  });
});
