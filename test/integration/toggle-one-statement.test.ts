import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresItemStore } from '../../src/modules/items/item-store.postgres.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/*
 * On PostgreSQL a toggle without If-Match is one statement that builds its event's payload in SQL
 * (decisions/0061). Its event must be what the general path writes, byte for byte: the feed, the
 * live stream and webhooks send the stored text as it is. The checks run on both databases, so
 * SQLite's general path holds the fast one to the same answers.
 */
describe.each(DIALECTS)('a toggle and its event (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** The stored payload text of the user's newest event. */
  async function lastPayload(a: Actor): Promise<string> {
    const row = await t.services.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('user_id', '=', a.user.id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return row.payload;
  }

  it('stores the answer as the event, in the bytes and key order JSON.stringify gives', async () => {
    const a = await actor(t);
    const title = 'say "hi"\\ to Zoë \u2028 ☃ 😀\tnow';
    const item = await capture(a.c, title, { type: 'todo', tags: ['beta', 'Alpha', 'zeta', 'Zed', 'gamma'], due_at: '2026-12-01T09:00:00.000Z' });
    const created = await lastPayload(a);
    ok(await a.c.patch(`items/${item.id}`, { content_md: 'line one\nline two\r\n\u0001 end' }));
    await a.events.take();

    const done = ok(await a.c.post(`items/${item.id}/toggle`));
    expect(done).toMatchObject({ is_completed: true, status: 'done', title, tags: ['Alpha', 'beta', 'gamma', 'Zed', 'zeta'] });
    const raw = await lastPayload(a);
    expect(raw).toBe(JSON.stringify(JSON.parse(raw)));
    const event = JSON.parse(raw);
    expect(event.event).toBe('item.completed');
    expect(event.data.item).toEqual(done);
    expect(event.created_at >= done.updated_at).toBe(true);
    // The same keys in the same order as an event the server builds in JavaScript.
    const built = JSON.parse(created);
    expect(Object.keys(event)).toEqual(Object.keys(built));
    expect(Object.keys(event.data.item)).toEqual(Object.keys(built.data.item));

    const open = ok(await a.c.post(`items/${item.id}/toggle`));
    expect(open).toMatchObject({ is_completed: false, status: 'todo' });
    expect(JSON.parse(await lastPayload(a))).toMatchObject({ event: 'item.uncompleted', data: { item: open } });
  });

  it('toggles an archived item in the archive, and a finished recurring one back open with its rule', async () => {
    const a = await actor(t);
    const archived = await capture(a.c, 'old thing', { type: 'todo' });
    ok(await a.c.post(`items/${archived.id}/archive`));
    const flipped = ok(await a.c.post(`items/${archived.id}/toggle`));
    expect(flipped).toMatchObject({ is_completed: true, status: 'archived' });
    expect(JSON.parse(await lastPayload(a))).toEqual(expect.objectContaining({ event: 'item.completed', data: { item: flipped } }));

    // COUNT=1: the one completion is an ordinary one, and the item keeps its rule.
    const once = await capture(a.c, 'once', { due_at: '2026-12-02T08:00:00.000Z', recurrence: { rule: 'FREQ=DAILY;COUNT=1', from: 'due' } });
    expect(ok(await a.c.post(`items/${once.id}/toggle`))).toMatchObject({ is_completed: true, recurrence: { rule: 'FREQ=DAILY;COUNT=1', from: 'due' } });
    await a.events.take();
    const reopened = ok(await a.c.post(`items/${once.id}/toggle`));
    expect(reopened).toMatchObject({ is_completed: false, status: 'todo', recurrence: { rule: 'FREQ=DAILY;COUNT=1', from: 'due' } });
    const raw = await lastPayload(a);
    expect(raw).toBe(JSON.stringify(JSON.parse(raw)));
    expect(JSON.parse(raw)).toMatchObject({ event: 'item.uncompleted', data: { item: reopened } });
  });

  it('sorts tags outside ASCII in the event as in the answer', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'pastry run', { type: 'todo', tags: ['éclair', 'Eclair', 'zed', 'Äpfel', 'äb'] });
    const done = ok(await a.c.post(`items/${item.id}/toggle`));
    expect(JSON.parse(await lastPayload(a)).data.item.tags).toEqual(done.tags);
  });

  it.runIf(dialect === 'postgres')('takes one statement where it may, and writes nothing where the general path must toggle', async () => {
    const a = await actor(t);
    const other = await actor(t);
    const store = createPostgresItemStore({ db: t.services.db, events: t.services.events, tags: t.services.tags, now: () => t.clock.now().toISOString() });
    const plain = await capture(a.c, 'plain', { type: 'todo', tags: ['x'] });
    const recurring = await capture(a.c, 'daily', { due_at: '2026-12-02T08:00:00.000Z', recurrence: { rule: 'FREQ=DAILY', from: 'due' } });
    const foreign = await capture(a.c, 'café run', { type: 'todo', tags: ['café'] });
    await a.events.take();

    expect(await store.tryToggle(a.user.id, plain.id)).toMatchObject({ id: plain.id, is_completed: true, status: 'done', tags: ['x'] });
    expect(await a.events.names()).toEqual(['item.completed']);

    // Completing a recurring item, a non-ASCII tag, an unknown id, another user's item: no row, no event.
    for (const [user, id] of [
      [a, recurring.id],
      [a, foreign.id],
      [a, UNKNOWN_ID],
      [a, 'not-a-uuid'],
      [other, plain.id],
    ] as const) {
      expect(await store.tryToggle(user.user.id, id)).toBeUndefined();
    }
    expect(await a.events.take()).toEqual([]);
    expect(ok(await a.c.get(`items/${recurring.id}`))).toEqual(recurring);
    expect(ok(await a.c.get(`items/${foreign.id}`))).toEqual(foreign);
    // The route then takes the general path for them.
    expect(ok(await a.c.post(`items/${foreign.id}/toggle`))).toMatchObject({ is_completed: true });
    expect(ok(await a.c.post(`items/${recurring.id}/toggle`))).toMatchObject({ is_completed: false, due_at: '2026-12-03T08:00:00.000Z' });
    expect(await a.events.names()).toEqual(['item.completed', 'item.completed', 'item.updated']);
  });
});
