import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, UNKNOWN_ID, UTC_MS, UUID, type Actor } from '../helpers/items.js';
import { client, type JsonBody, type TestApp, createTestApp } from '../helpers/test-app.js';

/*
 * Saved filters (contract "Filters and saved views"): /filters CRUD, the limits, the order,
 * /filters/{id}/items equal to GET /items?filter=, the change feed, export and import, scopes.
 */
describe.each(DIALECTS)('saved filters (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = async (a: Actor, body: Record<string, unknown>): Promise<JsonBody> => ok(await a.c.post('filters', body), 201).filter;

  it('creates, lists, gets, renames, recolours and deletes a filter', async () => {
    const a = await actor(t);
    const made = await create(a, { name: '  Today or late ', query: 'today | overdue', color: '#AABBCC' });
    expect(Object.keys(made).sort()).toEqual(['color', 'created_at', 'id', 'name', 'position', 'query', 'updated_at']);
    expect(made).toMatchObject({ name: 'Today or late', query: 'today | overdue', color: '#aabbcc', position: 0 });
    expect(made.id).toMatch(UUID);
    expect(made.created_at).toMatch(UTC_MS);
    const second = await create(a, { name: 'Today or late', query: '#Inbox' });
    expect(second).toMatchObject({ color: null, position: 1 });
    expect(ok(await a.c.get('filters')).filters.map((f: JsonBody) => f.id)).toEqual([made.id, second.id]);
    expect(ok(await a.c.get(`filters/${made.id}`)).filter).toEqual(made);

    t.clock.advance(1000);
    const patched = ok(await a.c.patch(`filters/${made.id}`, { name: 'Late', query: 'overdue', color: null })).filter;
    expect(patched).toMatchObject({ id: made.id, name: 'Late', query: 'overdue', color: null, position: 0 });
    expect(patched.updated_at > made.updated_at).toBe(true);

    expect(ok(await a.c.delete(`filters/${made.id}`))).toEqual({ ok: true });
    expectError(await a.c.get(`filters/${made.id}`), 404, 'not_found');
    expectError(await a.c.delete(`filters/${made.id}`), 404, 'not_found');
    expectError(await a.c.patch(`filters/not-a-uuid`, { name: 'x' }), 404, 'not_found');
    expect(ok(await a.c.get('filters')).filters.map((f: JsonBody) => f.id)).toEqual([second.id]);
  });

  it('refuses a query that does not parse with the position, and bad names and colours, changing nothing', async () => {
    const a = await actor(t);
    const res = await a.c.post('filters', { name: 'bad', query: 'today &' });
    expectError(res, 400, 'bad_request');
    expect(res.body.details).toEqual([{ field: 'filter', message: 'expected a term after &', position: 7 }]);
    expectError(await a.c.post('filters', { name: 'bad', query: 'due: blah' }), 400, 'bad_request');
    expectError(await a.c.post('filters', { name: '   ', query: 'today' }), 400, 'bad_request');
    expectError(await a.c.post('filters', { name: 'x'.repeat(101), query: 'today' }), 400, 'bad_request');
    expectError(await a.c.post('filters', { name: 'x', query: 'x'.repeat(1001) }), 400, 'bad_request');
    expectError(await a.c.post('filters', { name: 'x', query: '' }), 400, 'bad_request');
    expectError(await a.c.post('filters', { name: 'x', query: 'today', color: 'red' }), 400, 'bad_request');
    const kept = await create(a, { name: 'ok', query: 'today' });
    expectError(await a.c.patch(`filters/${kept.id}`, { query: '(' }), 400, 'bad_request');
    expect(ok(await a.c.get('filters')).filters).toEqual([kept]);
    expect(await a.events.names()).toEqual(['filter.created']);
  });

  it('keeps at most 100 filters a user: the 101st is 400', async () => {
    const a = await actor(t);
    for (let i = 0; i < 100; i += 1) await create(a, { name: `f${i}`, query: 'today' });
    const res = await a.c.post('filters', { name: 'one too many', query: 'today' });
    expectError(res, 400, 'bad_request');
    expect(res.body.message).toMatch(/100/);
    expect(ok(await a.c.get('filters')).filters).toHaveLength(100);
  });

  it('moves a filter in the order with position, and the filters it passes follow', async () => {
    const a = await actor(t);
    const [f0, f1, f2, f3] = [
      await create(a, { name: 'a', query: 'today' }),
      await create(a, { name: 'b', query: 'today' }),
      await create(a, { name: 'c', query: 'today' }),
      await create(a, { name: 'd', query: 'today' }),
    ];
    await a.events.take();
    expect(ok(await a.c.patch(`filters/${f3.id}`, { position: 1 })).filter.position).toBe(1);
    const order = () => a.c.get('filters').then((r) => r.body.filters.map((f: JsonBody) => [f.name, f.position]));
    expect(await order()).toEqual([
      ['a', 0],
      ['d', 1],
      ['b', 2],
      ['c', 3],
    ]);
    // b and c moved down, d moved: one filter.updated each.
    const events = await a.events.take();
    expect(events.map((e) => [e.event, (e.data as unknown as { filter: JsonBody }).filter.name]).sort()).toEqual([
      ['filter.updated', 'b'],
      ['filter.updated', 'c'],
      ['filter.updated', 'd'],
    ]);
    ok(await a.c.patch(`filters/${f0.id}`, { position: 99 }));
    expect(await order()).toEqual([
      ['d', 0],
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
    void f1;
    void f2;
  });

  it('answers /filters/{id}/items exactly as GET /items?filter= its query', async () => {
    const a = await actor(t);
    const work = ok(await a.c.post('projects', { name: 'Work' }));
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(1000);
      await capture(a.c, `task ${i}`, {
        parse: false,
        project_id: i % 2 ? work.id : undefined,
        ...(i < 3 ? { due_at: `2026-12-0${i + 1}T10:00:00.000Z` } : {}),
      });
    }
    const saved = await create(a, { name: 'work', query: '#Work | no date' });
    for (const page of ['limit=2', 'limit=50']) {
      const direct = ok(await a.c.get(`items?filter=${encodeURIComponent(saved.query)}&${page}`));
      const viaFilter = ok(await a.c.get(`filters/${saved.id}/items?${page}`));
      expect(viaFilter).toEqual(direct);
      if (direct.next_cursor) {
        expect(ok(await a.c.get(`filters/${saved.id}/items?limit=2&cursor=${direct.next_cursor}`))).toEqual(
          ok(await a.c.get(`items?filter=${encodeURIComponent(saved.query)}&limit=2&cursor=${direct.next_cursor}`)),
        );
      }
    }
    expect(ok(await a.c.get(`filters/${saved.id}/items`)).items.map((i: JsonBody) => i.title)).toEqual(['task 1', 'task 4', 'task 3']);
    expectError(await a.c.get(`filters/${UNKNOWN_ID}/items`), 404, 'not_found');
    // A saved filter naming a project that is gone answers as its query does: 400 naming it.
    const gone = await create(a, { name: 'gone', query: '#Later' });
    const res = await a.c.get(`filters/${gone.id}/items`);
    expectError(res, 400, 'bad_request');
    expect(res.body.details[0]).toEqual({ field: 'filter', message: 'there is no project named "Later"', position: 0 });
  });

  it('puts filter.created, filter.updated and filter.deleted in the change feed', async () => {
    const a = await actor(t);
    const made = await create(a, { name: 'x', query: 'today' });
    ok(await a.c.patch(`filters/${made.id}`, { name: 'y' }));
    ok(await a.c.delete(`filters/${made.id}`));
    const feed = ok(await a.c.get('changes'));
    expect(feed.changes.map((c: JsonBody) => c.event)).toEqual(['filter.created', 'filter.updated', 'filter.deleted']);
    expect(feed.changes.map((c: JsonBody) => c.data.filter.name)).toEqual(['x', 'y', 'y']);
    expect(feed.changes[0].data.filter).toEqual(made);
    expect(feed.changes[0].data.item).toBeUndefined();
  });

  it('exports filters and imports them, skipping ids already held', async () => {
    const from = await actor(t);
    const f1 = await create(from, { name: 'one', query: 'today', color: '#112233' });
    const f2 = await create(from, { name: 'two', query: '@calls' });
    const res = await from.c.get('export');
    const doc = JSON.parse(res.text);
    expect(doc.filters).toEqual([
      { id: f1.id, name: 'one', query: 'today', color: '#112233', position: 0 },
      { id: f2.id, name: 'two', query: '@calls', position: 1, color: null },
    ]);
    const to = await actor(t);
    await create(to, { name: 'mine', query: 'overdue' });
    const first = ok(await to.c.post('import', doc));
    expect(first.imported.filters).toBe(2);
    expect(ok(await to.c.get('filters')).filters.map((f: JsonBody) => [f.id, f.name, f.position])).toEqual([
      [expect.any(String), 'mine', 0],
      [f1.id, 'one', 1],
      [f2.id, 'two', 2],
    ]);
    const again = ok(await to.c.post('import', doc));
    expect(again.imported.filters).toBe(0);
    expect(ok(await to.c.get('filters')).filters).toHaveLength(3);
    // Back into the account it came from: every id is held.
    expect(ok(await from.c.post('import', doc)).imported.filters).toBe(0);
  });

  it('needs read to list and write to change; another user never sees them', async () => {
    const a = await actor(t);
    const made = await create(a, { name: 'x', query: 'today' });
    const reader = client(t.app, (await t.services.keys.mint(a.user.id, 'reader', { scopes: ['read'] })).token);
    ok(await reader.get('filters'));
    ok(await reader.get(`filters/${made.id}/items`));
    ok(await reader.get('items?filter=today'));
    expectError(await reader.post('filters', { name: 'x', query: 'today' }), 403, 'insufficient_scope');
    expectError(await reader.patch(`filters/${made.id}`, { name: 'z' }), 403, 'insufficient_scope');
    expectError(await reader.delete(`filters/${made.id}`), 403, 'insufficient_scope');
    const capturer = client(t.app, (await t.services.keys.mint(a.user.id, 'cap', { scopes: ['capture'] })).token);
    expectError(await capturer.get('items?filter=today'), 403, 'insufficient_scope');
    const other = await actor(t);
    expectError(await other.c.get(`filters/${made.id}`), 404, 'not_found');
    expectError(await other.c.get(`filters/${made.id}/items`), 404, 'not_found');
    expectError(await other.c.delete(`filters/${made.id}`), 404, 'not_found');
    expect(ok(await other.c.get('filters')).filters).toEqual([]);
  });
});
