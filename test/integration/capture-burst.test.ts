import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';
import { DIALECTS } from '../helpers/dialects.js';

/*
 * No per-second bound on captures (SQLite's search keys count a user's items; the earlier layout
 * keyed them by creation second and held 1,024 a second). Captures within one clock millisecond,
 * sent concurrently so that SQLite's group commit puts many in one transaction, all succeed and
 * page through search and the list exactly once, in the list's order.
 */
describe.each(DIALECTS)('POST /api/v1/capture in a burst (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const BURST = 1_100;

  it('takes more than 1,024 captures of one user within one millisecond, and search pages them all newest first', async () => {
    const user = await createUser(t, 'pro');
    const c = client(t.app, user.token);
    t.clock.set('2026-11-21T10:00:00.500Z');
    const statuses: number[] = [];
    for (let from = 0; from < BURST; from += 100) {
      const batch = await Promise.all(Array.from({ length: 100 }, (_, i) => c.post('capture', { text: `burst ${from + i}` })));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);

    const listed: string[] = [];
    for (let cursor: string | null = null, pages = 0; pages < 20; pages += 1) {
      const page: { body: { items: { id: string }[]; next_cursor: string | null } } = await c.get(`items?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      listed.push(...page.body.items.map((i) => i.id));
      cursor = page.body.next_cursor;
      if (!cursor) break;
    }
    expect(listed).toHaveLength(BURST);

    const found: string[] = [];
    for (let cursor: string | null = null, pages = 0; pages < 40; pages += 1) {
      const page: { body: { items: { id: string }[]; next_cursor: string | null } } = await c.get(
        `items/search?q=burst&limit=77${cursor ? `&cursor=${cursor}` : ''}`,
      );
      found.push(...page.body.items.map((i) => i.id));
      cursor = page.body.next_cursor;
      if (!cursor) break;
    }
    expect(found).toEqual(listed);
  });
});
