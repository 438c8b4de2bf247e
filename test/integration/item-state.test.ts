import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectConsistent, expectError, iso, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

type Status = 'backlog' | 'todo' | 'doing' | 'done' | 'archived';

describe.each(DIALECTS)('item state (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A new item in the given status, with the user's outbox emptied. */
  async function itemIn(a: Actor, status: Status = 'todo', type: 'todo' | 'note' = 'todo'): Promise<JsonBody> {
    let item = await capture(a.c, `${status} item`, { type });
    if (item.status !== status) item = ok(await a.c.patch(`items/${item.id}`, { status }));
    await a.events.take();
    t.clock.advance(1000);
    return item;
  }

  /** Runs a state operation, checks the invariant, and answers the item and the events it wrote. */
  async function run(a: Actor, method: 'toggle' | 'archive' | 'unarchive' | Status, id: string) {
    const res = ['toggle', 'archive', 'unarchive'].includes(method)
      ? await a.c.post(`items/${id}/${method}`)
      : await a.c.patch(`items/${id}`, { status: method });
    const item = ok(res);
    expectConsistent(item);
    expect(ok(await a.c.get(`items/${id}`))).toEqual(item);
    const events = await a.events.take();
    for (const event of events) expect(event.data.item).toEqual(item);
    return { item, events: events.map((e) => e.event) };
  }

  describe('POST /api/v1/items/{id}/toggle', () => {
    it('sets status done and emits only item.completed when completing', async () => {
      const a = await actor(t);
      const before = await itemIn(a, 'todo');
      const { item, events } = await run(a, 'toggle', before.id);
      expect(item).toMatchObject({ is_completed: true, status: 'done', archived_at: null, updated_at: iso(t), created_at: before.created_at });
      expect(events).toEqual(['item.completed']);
    });

    it('sets status todo and emits only item.uncompleted when uncompleting', async () => {
      const a = await actor(t);
      const before = await itemIn(a, 'done');
      const { item, events } = await run(a, 'toggle', before.id);
      expect(item).toMatchObject({ is_completed: false, status: 'todo', updated_at: iso(t) });
      expect(events).toEqual(['item.uncompleted']);
    });

    it.each(['backlog', 'doing'] as const)('completes a %s item to done', async (status) => {
      const a = await actor(t);
      const before = await itemIn(a, status);
      expect((await run(a, 'toggle', before.id)).item).toMatchObject({ is_completed: true, status: 'done' });
    });

    it('uncompletes a note to todo too', async () => {
      const a = await actor(t);
      const note = await itemIn(a, 'backlog', 'note');
      expect((await run(a, 'toggle', note.id)).item).toMatchObject({ type: 'note', status: 'done', is_completed: true });
      expect((await run(a, 'toggle', note.id)).item).toMatchObject({ type: 'note', status: 'todo', is_completed: false });
    });

    it('flips is_completed on an archived item and keeps status archived', async () => {
      const a = await actor(t);
      const archived = ok(await a.c.post(`items/${(await itemIn(a, 'doing')).id}/archive`));
      await a.events.take();
      const first = await run(a, 'toggle', archived.id);
      expect(first.item).toMatchObject({ is_completed: true, status: 'archived', archived_at: archived.archived_at });
      expect(first.events).toEqual(['item.completed']);
      const second = await run(a, 'toggle', archived.id);
      expect(second.item).toMatchObject({ is_completed: false, status: 'archived', archived_at: archived.archived_at });
      expect(second.events).toEqual(['item.uncompleted']);
    });

    it('answers 200 to Content-Type: application/json with an empty body', async () => {
      const a = await actor(t);
      const item = await itemIn(a);
      const noPayload = await a.c.send('POST', `items/${item.id}/toggle`, undefined, { 'content-type': 'application/json' });
      expect(ok(noPayload)).toMatchObject({ is_completed: true });
      expect(ok(await a.c.post(`items/${item.id}/toggle`, ''))).toMatchObject({ is_completed: false });
    });

    it.each([UNKNOWN_ID, 'not-a-uuid'])('answers 404 for item %s', async (id) => {
      const a = await actor(t);
      expectError(await a.c.post(`items/${id}/toggle`), 404, 'not_found');
    });
  });

  describe('POST /api/v1/items/{id}/archive', () => {
    it('sets status archived and archived_at, keeps is_completed, emits only item.archived', async () => {
      const a = await actor(t);
      const before = await itemIn(a, 'doing');
      const { item, events } = await run(a, 'archive', before.id);
      expect(item).toMatchObject({ status: 'archived', archived_at: iso(t), updated_at: iso(t), is_completed: false });
      expect(events).toEqual(['item.archived']);
    });

    it('keeps a completed item completed', async () => {
      const a = await actor(t);
      const before = await itemIn(a, 'done');
      expect((await run(a, 'archive', before.id)).item).toMatchObject({ status: 'archived', is_completed: true });
    });

    it('answers 200 and changes nothing, with no event, when already archived', async () => {
      const a = await actor(t);
      const archived = (await run(a, 'archive', (await itemIn(a)).id)).item;
      t.clock.advance(5000);
      const { item, events } = await run(a, 'archive', archived.id);
      expect(item).toEqual(archived);
      expect(events).toEqual([]);
    });

    it.each([UNKNOWN_ID, 'not-a-uuid'])('answers 404 for item %s', async (id) => {
      const a = await actor(t);
      expectError(await a.c.post(`items/${id}/archive`), 404, 'not_found');
    });
  });

  describe('POST /api/v1/items/{id}/unarchive', () => {
    it.each(['backlog', 'todo', 'doing'] as const)('restores the remembered status %s and emits only item.updated', async (status) => {
      const a = await actor(t);
      const item = await itemIn(a, status);
      await run(a, 'archive', item.id);
      t.clock.advance(1000);
      const res = await run(a, 'unarchive', item.id);
      expect(res.item).toMatchObject({ status, is_completed: false, archived_at: null, updated_at: iso(t) });
      expect(res.events).toEqual(['item.updated']);
    });

    it('answers done for a completed item', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'done');
      await run(a, 'archive', item.id);
      expect((await run(a, 'unarchive', item.id)).item).toMatchObject({ status: 'done', is_completed: true, archived_at: null });
    });

    it('answers done for an item completed while archived', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'doing');
      await run(a, 'archive', item.id);
      await run(a, 'toggle', item.id);
      const res = await run(a, 'unarchive', item.id);
      expect(res.item).toMatchObject({ status: 'done', is_completed: true, archived_at: null });
      expect(res.events).toEqual(['item.updated']);
    });

    it('answers todo when the remembered status was done but the item is no longer completed', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'done');
      await run(a, 'archive', item.id);
      await run(a, 'toggle', item.id);
      expect((await run(a, 'unarchive', item.id)).item).toMatchObject({ status: 'todo', is_completed: false, archived_at: null });
    });

    it('answers 200 and changes nothing, with no event, when not archived', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'doing');
      const { item: after, events } = await run(a, 'unarchive', item.id);
      expect(after).toEqual(item);
      expect(events).toEqual([]);
    });

    it.each([UNKNOWN_ID, 'not-a-uuid'])('answers 404 for item %s', async (id) => {
      const a = await actor(t);
      expectError(await a.c.post(`items/${id}/unarchive`), 404, 'not_found');
    });
  });

  describe('PATCH /api/v1/items/{id} status', () => {
    it('done sets is_completed and emits item.updated and item.completed', async () => {
      const a = await actor(t);
      const { item, events } = await run(a, 'done', (await itemIn(a, 'doing')).id);
      expect(item).toMatchObject({ status: 'done', is_completed: true, updated_at: iso(t) });
      expect(events).toEqual(['item.updated', 'item.completed']);
    });

    it.each(['backlog', 'todo', 'doing'] as const)('%s clears is_completed and emits item.updated and item.uncompleted', async (status) => {
      const a = await actor(t);
      const { item, events } = await run(a, status, (await itemIn(a, 'done')).id);
      expect(item).toMatchObject({ status, is_completed: false });
      expect(events).toEqual(['item.updated', 'item.uncompleted']);
    });

    it('moving between open statuses emits only item.updated', async () => {
      const a = await actor(t);
      const { item, events } = await run(a, 'doing', (await itemIn(a, 'backlog')).id);
      expect(item).toMatchObject({ status: 'doing', is_completed: false });
      expect(events).toEqual(['item.updated']);
    });

    it('archived acts as archive: archived_at set, status remembered, item.updated and item.archived', async () => {
      const a = await actor(t);
      const before = await itemIn(a, 'doing');
      const { item, events } = await run(a, 'archived', before.id);
      expect(item).toMatchObject({ status: 'archived', archived_at: iso(t), is_completed: false });
      expect(events).toEqual(['item.updated', 'item.archived']);
      expect((await run(a, 'unarchive', before.id)).item).toMatchObject({ status: 'doing' });
    });

    it('archived on an archived item changes nothing and emits nothing', async () => {
      const a = await actor(t);
      const archived = (await run(a, 'archive', (await itemIn(a)).id)).item;
      t.clock.advance(1000);
      const { item, events } = await run(a, 'archived', archived.id);
      expect(item).toEqual(archived);
      expect(events).toEqual([]);
    });

    it('the current status again changes nothing and emits nothing', async () => {
      const a = await actor(t);
      const before = await itemIn(a, 'doing');
      const { item, events } = await run(a, 'doing', before.id);
      expect(item).toEqual(before);
      expect(events).toEqual([]);
    });

    it.each(['backlog', 'todo', 'doing'] as const)('leaving archived for %s unarchives to it (emits item.updated)', async (status) => {
      const a = await actor(t);
      const item = await itemIn(a, 'backlog');
      await run(a, 'archive', item.id);
      const res = await run(a, status, item.id);
      expect(res.item).toMatchObject({ status, is_completed: false, archived_at: null });
      expect(res.events).toEqual(['item.updated']);
    });

    it('leaving archived for done completes the item (item.updated and item.completed)', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'todo');
      await run(a, 'archive', item.id);
      const res = await run(a, 'done', item.id);
      expect(res.item).toMatchObject({ status: 'done', is_completed: true, archived_at: null });
      expect(res.events).toEqual(['item.updated', 'item.completed']);
    });

    it('leaving archived for an open status uncompletes a completed item (item.updated and item.uncompleted)', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'done');
      await run(a, 'archive', item.id);
      const res = await run(a, 'doing', item.id);
      expect(res.item).toMatchObject({ status: 'doing', is_completed: false, archived_at: null });
      expect(res.events).toEqual(['item.updated', 'item.uncompleted']);
    });

    it('answers 400 for an unknown status and changes nothing', async () => {
      const a = await actor(t);
      const item = await itemIn(a, 'doing');
      expectError(await a.c.patch(`items/${item.id}`, { status: 'finished' }), 400, 'bad_request');
      expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
      expect(await a.events.take()).toEqual([]);
    });
  });

  describe('every operation from every state', () => {
    const starts = ['backlog', 'todo', 'doing', 'done', 'archived-open', 'archived-done'] as const;
    const ops = ['toggle', 'archive', 'unarchive', 'backlog', 'todo', 'doing', 'done', 'archived'] as const;
    it.each(starts)('keeps status and is_completed consistent starting from %s', async (start) => {
      const a = await actor(t);
      for (const op of ops) {
        const base: Status = start === 'archived-done' ? 'done' : start === 'archived-open' ? 'doing' : start;
        const item = await itemIn(a, base);
        if (start.startsWith('archived')) await run(a, 'archive', item.id);
        const { item: after } = await run(a, op, item.id);
        expect(after.is_completed, `${op} from ${start}`).toBe(
          op === 'toggle' ? !item.is_completed : op === 'done' ? true : ['backlog', 'todo', 'doing'].includes(op) ? false : item.is_completed,
        );
      }
    });
  });
});
