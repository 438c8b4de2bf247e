import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doneSinceQuery } from '../../src/modules/items/items-lists.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { queryPlan } from '../helpers/query-plan.js';
import { createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/*
 * "Done today" reads the partial index of done items by last change (migration
 * 2026-11-30-1300-done-today-index, decision 0109), not every item changed today: after an import
 * most of an account is, and few of its items are done. On PostgreSQL the plan asked for is the
 * generic one, which the server's named statements come to after five runs: it can use the partial
 * index only if the query says `status = 'done'` as a literal (with a bound value it cannot prove the
 * index's condition).
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

    const plan = await queryPlan(t.services.db, dialect, doneSinceQuery(t.services.db, dialect, userId, dayStart, 100));
    expect(plan).toMatch(/items_done_updated_idx/);
  });
});
