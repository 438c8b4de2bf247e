import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import type { CompiledQuery } from 'kysely';
import { createPostgresItemStore } from '../../src/modules/items/item-store.postgres.js';
import { toggleState } from '../../src/modules/items/item-state.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * Changes that race on the same items. SQLite runs one writer at a time; PostgreSQL runs them side
 * by side (the pool has several connections), so a change must lock the rows it read before it
 * decides their new state: otherwise two toggles both read "not done" and one of them is lost, and
 * two bulk calls that lock overlapping rows in different orders can deadlock.
 */
describe.each(DIALECTS)('concurrent changes to the same items (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  async function items(a: Actor, n: number): Promise<JsonBody[]> {
    const out: JsonBody[] = [];
    for (let i = 0; i < n; i += 1) out.push(await capture(a.c, `item ${i}`));
    await a.events.take();
    return out;
  }

  it('applies every one of many simultaneous toggles of one item, with one event each', async () => {
    const a = await actor(t);
    const [item] = await items(a, 1);
    const toggles = 20;
    const answers = await Promise.all(Array.from({ length: toggles }, () => a.c.post(`items/${item.id}/toggle`)));
    expect(answers.map((r) => r.status)).toEqual(Array<number>(toggles).fill(200));
    // Each toggle saw the state the previous one left: the answers alternate, half of each.
    expect(answers.filter((r) => r.body.is_completed === true)).toHaveLength(toggles / 2);
    expect(ok(await a.c.get(`items/${item.id}`)).is_completed).toBe(false);
    const names = (await a.events.take()).map((e) => e.event).sort();
    expect(names).toEqual([...Array<string>(toggles / 2).fill('item.completed'), ...Array<string>(toggles / 2).fill('item.uncompleted')]);
  });

  it.runIf(dialect === 'postgres')(
    'writes a state change read at an old version of the row nowhere, and the route then makes it on the locked row',
    async () => {
      const a = await actor(t);
      const [item] = await items(a, 1);
      const db = t.services.db;
      // Another change moves the row on right after the store's read: the version it read is no
      // longer the row's when its one-statement write runs.
      let queries = 0;
      const racing = new Proxy(db, {
        get(target, prop) {
          if (prop === 'executeQuery') {
            return async (query: CompiledQuery) => {
              const result = await target.executeQuery(query);
              if (queries++ === 0) ok(await a.c.post(`items/${item.id}/archive`));
              return result;
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const at = () => '2030-01-01T00:00:00.000Z';
      const stale = createPostgresItemStore({ db: racing, events: t.services.events, tags: t.services.tags, now: at });
      expect(await stale.tryStateChange(a.user.id, item.id, (s) => toggleState(s))).toBeUndefined();
      expect(queries).toBe(2);
      expect(await a.events.names()).toEqual(['item.archived']);
      const now = ok(await a.c.get(`items/${item.id}`));
      expect([now.status, now.is_completed]).toEqual(['archived', false]);
      // The same write at the row's current version makes the change and its event.
      const fresh = createPostgresItemStore({ db, events: t.services.events, tags: t.services.tags, now: at });
      expect((await fresh.tryStateChange(a.user.id, item.id, (s) => toggleState(s)))?.is_completed).toBe(true);
      expect(await a.events.names()).toEqual(['item.completed']);
    },
  );

  it('runs overlapping bulk calls in opposite orders without a deadlock or a lost change', async () => {
    const a = await actor(t);
    const list = await items(a, 30);
    const ids = list.map((i) => i.id);
    // Items in two states make each call two UPDATEs, whose order follows the order of the ids.
    const done = ids.filter((_, i) => i % 2 === 1);
    ok(await a.c.post('items/bulk', { op: 'toggle', ids: done }));
    await a.events.take();
    const reversed = [...ids].reverse();
    // Every id toggled by 8 calls (half of them in reverse order): each item ends where it began.
    const calls = Array.from({ length: 8 }, (_, n) => a.c.post('items/bulk', { op: 'toggle', ids: n % 2 === 0 ? ids : reversed }));
    const answers = await Promise.all(calls);
    expect(answers.map((r) => r.status)).toEqual(Array<number>(8).fill(200));
    for (const r of answers) expect(r.body).toEqual({ ok: true, updated: 30, failures: [] });
    const page = ok(await a.c.get('items?limit=200'));
    expect(
      (page.items as JsonBody[])
        .filter((i) => i.is_completed)
        .map((i) => i.id)
        .sort(),
    ).toEqual([...done].sort());
    expect(await a.events.take()).toHaveLength(8 * 30);
  });
});
