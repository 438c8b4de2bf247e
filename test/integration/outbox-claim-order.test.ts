import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/*
 * Fan-out gives each claimed event's deliveries their ids (time-ordered) in the order the claim
 * answers the events, and the delivery log reads newest first by those ids. PostgreSQL's
 * UPDATE … RETURNING answers rows in the order the update met them, which is where they lie in the
 * table, not the order the claim picked them in: the claim must answer oldest first itself.
 */
describe.each(DIALECTS)('the webhook fan-out claim of outbox events (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('answers the claimed events oldest first, whatever order they lie in the table', async () => {
    const a = await actor(t);
    // Written newest first: each capture's event is stamped an hour before the previous one's.
    const start = new Date('2026-11-21T12:00:00.000Z').getTime();
    for (let i = 0; i < 12; i += 1) {
      t.clock.set(new Date(start - i * 3600_000));
      await capture(a.c, `item ${i}`);
    }
    const { db, events } = t.services;
    await db.transaction().execute((trx) => events.reopenSince(trx, a.user.id, '2000-01-01T00:00:00.000Z'));
    const claimed = await db.transaction().execute((trx) => events.takeUndispatched(trx, '2026-11-21T13:00:00.000Z', 100));
    const mine = claimed.filter((e) => e.user_id === a.user.id);
    expect(mine).toHaveLength(12);
    const order = mine.map((e) => e.created_at);
    expect(order).toEqual([...order].sort());
  });
});
