import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, UNKNOWN_ID } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('bulk update and GET /items/completed (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('update applies the PATCH fields to each id, with the events of PATCH, and fails only the ids that are not yours', async () => {
    const a = await actor(t);
    const b = await actor(t);
    const mine = [await capture(a.c, 'one'), await capture(a.c, 'two')];
    const theirs = await capture(b.c, 'theirs');
    await a.events.take();
    const res = ok(
      await a.c.post('items/bulk', {
        op: 'update',
        ids: [mine[0].id, mine[1].id, mine[0].id, theirs.id, UNKNOWN_ID],
        payload: { tags: ['errand'], status: 'doing' },
      }),
    );
    expect(res.ok).toBe(false);
    expect(res.updated).toBe(2);
    expect(res.failures).toEqual([
      { id: theirs.id, error: 'not_found', message: 'item not found' },
      { id: UNKNOWN_ID, error: 'not_found', message: 'item not found' },
    ]);
    for (const item of mine) expect(ok(await a.c.get(`items/${item.id}`))).toMatchObject({ tags: ['errand'], status: 'doing' });
    expect(await a.events.names()).toEqual(['item.updated', 'item.updated']);
    // The other user's item is untouched.
    expect(ok(await b.c.get(`items/${theirs.id}`))).toMatchObject({ tags: [], status: 'todo' });
  });

  it('update without a field is 400, and a field PATCH refuses fails that id with its code', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'x');
    expectError(await a.c.post('items/bulk', { op: 'update', ids: [item.id] }), 400, 'bad_request');
    expectError(await a.c.post('items/bulk', { op: 'update', ids: [item.id], payload: { status: 'nope' } }), 400, 'bad_request');
    const res = ok(await a.c.post('items/bulk', { op: 'update', ids: [item.id], payload: { project_id: UNKNOWN_ID } }));
    expect(res).toMatchObject({ ok: false, updated: 0, failures: [{ id: item.id, error: 'not_found' }] });
  });

  it('lists completed items since a time, the latest first, in pages, and only the caller’s', async () => {
    const a = await actor(t);
    const b = await actor(t);
    const old = await capture(a.c, 'old');
    ok(await a.c.post(`items/${old.id}/toggle`));
    t.clock.advance(8 * 24 * 3600_000);
    const open = await capture(a.c, 'still open');
    const done: string[] = [];
    for (const title of ['first', 'second', 'third']) {
      t.clock.advance(1000);
      const item = await capture(a.c, title);
      ok(await a.c.post(`items/${item.id}/toggle`));
      done.push(item.id);
    }
    const other = await capture(b.c, 'other');
    ok(await b.c.post(`items/${other.id}/toggle`));
    // Default window: 7 days; the old completion is left out, the open item too.
    const all = ok(await a.c.get('items/completed'));
    expect(all.items.map((i: { id: string }) => i.id)).toEqual([...done].reverse());
    expect(all.items.map((i: { id: string }) => i.id)).not.toContain(open.id);
    const first = ok(await a.c.get('items/completed?limit=2'));
    expect(first.items).toHaveLength(2);
    const second = ok(await a.c.get(`items/completed?limit=2&cursor=${first.next_cursor}`));
    expect(second).toMatchObject({ next_cursor: null, items: [{ id: done[0] }] });
    const since = ok(await a.c.get(`items/completed?since=${encodeURIComponent('2000-01-01T00:00:00Z')}`));
    expect(since.items.map((i: { id: string }) => i.id)).toContain(old.id);
    expectError(await a.c.get('items/completed?since=yesterday'), 400, 'bad_request');
    expectError(await a.c.get('items/completed?cursor=zzz'), 400, 'bad_request');
  });
});
