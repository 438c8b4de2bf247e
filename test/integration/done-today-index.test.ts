import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doneSinceQuery } from '../../src/modules/items/items-lists.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/*
 * "Done today" reads the partial index of done items by last change (migration
 * 2026-11-30-1300-done-today-index, decision 0109), not every item changed today: after an import
 * most of an account is, and few of its items are done. On PostgreSQL the plan asked for is the
 * generic one, which the server's named statements come to after five runs: it can use the partial
 * index only if the query says `status = 'done'` as a literal (with a bound value it cannot prove the
 * index's condition). Sequential and bitmap scans are off there, as in filter-indexes.test.ts: on a
 * table this small PostgreSQL would rather read it whole.
 */
describe.each(DIALECTS)('Done today index (%s)', (dialect) => {
  let t: TestApp;
  let userId: string;
  const now = new Date('2026-11-30T10:00:00.000Z');
  const dayStart = '2026-11-30T00:00:00.000Z';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(now);
    const user = await createUser(t);
    userId = user.id;
    const acting = { id: userId, email: user.email, plan: 'free' as const, timezone: 'UTC', keyId: null };
    for (let i = 0; i < 12; i += 1) {
      const { item } = await t.services.capture.capture(acting, { text: `item ${i}` });
      if (i % 3 === 0) await t.services.items.toggle(userId, item.id);
    }
  });
  afterAll(async () => t?.close());

  it('answers the done items changed since the day began, newest first, from the done index', async () => {
    const done = await t.services.items.doneSince(userId, dayStart);
    expect(done.map((i) => i.title)).toEqual(['item 9', 'item 6', 'item 3', 'item 0']);
    expect(done.every((i) => i.status === 'done')).toBe(true);

    const db = t.services.db;
    const page = doneSinceQuery(db, dialect, userId, dayStart, 100).compile();
    let plan: string;
    if (dialect === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]));
      plan = rows.rows.map((r) => r.detail).join('\n');
    } else {
      plan = await db.transaction().execute(async (trx) => {
        for (const setting of ['enable_seqscan = off', 'enable_bitmapscan = off', 'plan_cache_mode = force_generic_plan']) {
          await trx.executeQuery(CompiledQuery.raw(`set local ${setting}`));
        }
        await trx.executeQuery(CompiledQuery.raw(`prepare done_since as ${page.sql}`));
        const values = page.parameters.map((p) => `'${String(p)}'`).join(', ');
        const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain execute done_since(${values})`));
        await trx.executeQuery(CompiledQuery.raw('deallocate done_since'));
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    }
    expect(plan).toMatch(/items_done_updated_idx/);
  });
});
