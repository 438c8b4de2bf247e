import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agendaQuery } from '../../src/modules/items/items-lists.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { queryPlan } from '../helpers/query-plan.js';
import { createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/*
 * Today's and Upcoming's agenda reads the partial index of open items by due date (migration
 * 2026-11-30-0600), not the index of every item by due date, whose overdue range holds every done
 * item ever due. On PostgreSQL the generic plan can use it only if the query states the open
 * statuses as literals (decision 0109's lesson, applied to the agenda).
 */
describe.each(DIALECTS)('agenda index (%s)', (dialect) => {
  let t: TestApp;
  let userId: string;
  const now = new Date('2026-11-30T10:00:00.000Z');
  const dayEnd = '2026-12-01T00:00:00.000Z';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(now);
    const user = await createUser(t);
    userId = user.id;
    const acting = { id: userId, email: user.email, plan: 'free' as const, timezone: 'UTC', keyId: null };
    for (let i = 0; i < 8; i += 1) {
      const due_at = new Date(now.getTime() - (8 - i) * 86_400_000).toISOString();
      const { item } = await t.services.capture.capture(acting, { text: `item ${i}`, due_at });
      if (i % 2 === 0) await t.services.items.toggle(userId, item.id);
    }
  });
  afterAll(async () => t?.close());

  it('answers the open items due before the end of today, overdue first, from the open items’ due index', async () => {
    const due = await t.services.items.agenda(userId, { dueBefore: dayEnd });
    expect(due.map((i) => i.title)).toEqual(['item 1', 'item 3', 'item 5', 'item 7']);
    const plan = await queryPlan(t.services.db, dialect, agendaQuery(t.services.db, dialect, userId, { dueBefore: dayEnd, limit: 200 }));
    // Either partial index of open items (on a table this small the planner may take the one by project too).
    expect(plan).toMatch(/items_open_(project_)?due_idx/);
  });
});
