import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysUnordered } from '../../src/modules/search/search-index.sqlite.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, type Actor } from '../helpers/items.js';
import { allSearchPages } from '../helpers/search.js';
import { newestFirst, seedItems, type SeedItem } from '../helpers/seed-items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/*
 * Within one millisecond, items are written in whatever order their requests reach the database
 * (two processes of a cluster each number their own ids), so write order and id order differ.
 * SQLite walks its search keys in write order and puts each millisecond in id order itself; a page
 * that holds a whole millisecond, not only one that ends inside it, must come out by id.
 */
describe.each(DIALECTS)('search orders the items of one millisecond by id (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t);
  });
  afterAll(async () => t?.close());

  it('inside a page, for items written out of id order', async () => {
    const inbox = await t.services.projects.requireInbox(t.services.db, a.user.id);
    const item = (id: string, created_at: string): SeedItem & { id: string } => ({
      id,
      title: `walkorder ${id.slice(-2)}`,
      content_md: null,
      type: 'todo',
      status: 'todo',
      is_completed: false,
      project_id: inbox.id,
      due_at: null,
      created_at,
      tags: [],
    });
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, 0, ms)).toISOString();
    const ids = [5, 1, 7, 3, 8, 2, 6, 4].map((n) => `0190f5e2-0000-7000-8000-0000000000${String(n).padStart(2, '0')}`);
    // One older item, eight in one millisecond in scrambled id order, one newer: all in write order.
    const specs = [
      item('0190f5e2-0000-7000-8000-000000000090', at(1)),
      ...ids.map((id) => item(id, at(2))),
      item('0190f5e2-0000-7000-8000-000000000091', at(3)),
    ];
    await seedItems(t, a.user.id, specs);
    // SQLite: the walk in key order runs, not the sorted read of an out-of-order user.
    const walked = dialect === 'postgres' || !(await keysUnordered(t.services.db, a.user.id));
    expect(walked).toBe(true);

    const expected = [...specs].sort(newestFirst).map((s) => s.id);
    for (const limit of [10, 20, 3]) {
      expect((await allSearchPages(a.c, 'q=walkorder', limit)).ids, `limit ${limit}`).toEqual(expected);
    }
  });
});
