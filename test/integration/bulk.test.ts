import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectConsistent, expectError, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

type Op = 'toggle' | 'archive' | 'unarchive' | 'delete' | 'move';

describe.each(DIALECTS)('POST /api/v1/items/bulk (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** n new items of the actor, with its outbox emptied. */
  async function items(a: Actor, n: number, step = 10): Promise<JsonBody[]> {
    const out: JsonBody[] = [];
    for (let i = 0; i < n; i += 1) {
      t.clock.advance(step);
      out.push(await capture(a.c, `item ${i}`));
    }
    await a.events.take();
    return out;
  }

  const bulk = (a: Actor, body: unknown) => a.c.post('items/bulk', body);
  const get = async (a: Actor, id: string) => ok(await a.c.get(`items/${id}`));
  /** Event names per item id, in the order written. */
  async function eventsByItem(a: Actor): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const e of await a.events.take()) (out[e.data.item.id] ??= []).push(e.event);
    return out;
  }

  describe('each op has the effect and events of its single-item route', () => {
    /** Prepares twin items, runs the single-item route on one twin and the bulk op on the other. */
    async function compare(op: Op, prepare: (a: Actor, id: string) => Promise<void>, single: (a: Actor, id: string) => Promise<unknown>, payload?: object) {
      const a = await actor(t);
      // Twins are created at the same instant, so they differ only in id and title.
      const [one, two, three] = await items(a, 3, 0);
      for (const item of [one, two, three]) await prepare(a, item.id);
      await a.events.take();
      t.clock.advance(1000);
      await single(a, one.id);
      const singleEvents = await eventsByItem(a);
      const res = ok(await bulk(a, { op, ids: [two.id, three.id], ...(payload ? { payload } : {}) }));
      expect(res).toEqual({ ok: true, updated: 2, failures: [] });
      const bulkEvents = await eventsByItem(a);
      expect(bulkEvents[two.id] ?? []).toEqual(singleEvents[one.id] ?? []);
      expect(bulkEvents[three.id] ?? []).toEqual(singleEvents[one.id] ?? []);
      if (op === 'delete') {
        for (const item of [one, two, three]) expectError(await a.c.get(`items/${item.id}`), 404, 'not_found');
        return singleEvents[one.id];
      }
      const strip = (i: JsonBody) => ({ ...i, id: undefined, title: undefined });
      const [s, b2, b3] = [await get(a, one.id), await get(a, two.id), await get(a, three.id)];
      for (const item of [s, b2, b3]) expectConsistent(item);
      expect(strip(b2)).toEqual(strip(s));
      expect(strip(b3)).toEqual(strip(s));
      return singleEvents[one.id];
    }
    const none = async () => undefined;
    const post = (action: string) => async (a: Actor, id: string) => ok(await a.c.post(`items/${id}/${action}`));

    it('toggle completes open items (item.completed)', async () => {
      expect(await compare('toggle', none, post('toggle'))).toEqual(['item.completed']);
    });

    it('toggle reopens completed items (item.uncompleted)', async () => {
      expect(await compare('toggle', post('toggle'), post('toggle'))).toEqual(['item.uncompleted']);
    });

    it('toggle flips archived items and keeps them archived', async () => {
      expect(await compare('toggle', post('archive'), post('toggle'))).toEqual(['item.completed']);
    });

    it('archive (item.archived)', async () => {
      expect(await compare('archive', none, post('archive'))).toEqual(['item.archived']);
    });

    it('archive of an archived item changes nothing and writes no event', async () => {
      expect(await compare('archive', post('archive'), post('archive'))).toBeUndefined();
    });

    it('unarchive (item.updated)', async () => {
      expect(await compare('unarchive', post('archive'), post('unarchive'))).toEqual(['item.updated']);
    });

    it('unarchive of an open item changes nothing and writes no event', async () => {
      expect(await compare('unarchive', none, post('unarchive'))).toBeUndefined();
    });

    it('delete (item.deleted)', async () => {
      expect(await compare('delete', none, async (a, id) => expect((await a.c.delete(`items/${id}`)).status).toBe(204))).toEqual(['item.deleted']);
    });

    /** Item states a bulk call may meet side by side; each kind is prepared through the single-item routes. */
    const steps =
      (...actions: Array<string | { status: string }>) =>
      async (a: Actor, id: string) => {
        for (const action of actions) {
          if (typeof action === 'string') await post(action)(a, id);
          else ok(await a.c.patch(`items/${id}`, action));
        }
      };
    const kinds: Array<[string, (a: Actor, id: string) => Promise<void>]> = [
      ['todo', none],
      ['done', steps('toggle')],
      ['doing', steps({ status: 'doing' })],
      ['backlog', steps({ status: 'backlog' })],
      ['archived todo', steps('archive')],
      ['archived done', steps('toggle', 'archive')],
      ['archived doing', steps({ status: 'doing' }, 'archive')],
      ['archived, completed while archived', steps('archive', 'toggle')],
    ];

    it.each([
      ['toggle', 'toggle', 8],
      ['archive', 'archive', 4],
      ['unarchive', 'unarchive', 4],
    ] as const)('%s over items in every state at once: each gets its single-item effect and events, in the order of the ids', async (op, action, changed) => {
      const a = await actor(t);
      const all = await items(a, kinds.length * 2, 0);
      const pairs = kinds.map(([kind, prepare], i) => ({ kind, prepare, single: all[2 * i]!, twin: all[2 * i + 1]! }));
      for (const { prepare, single, twin } of pairs) {
        await prepare(a, single.id);
        await prepare(a, twin.id);
      }
      await a.events.take();
      t.clock.advance(1000);
      for (const { single } of pairs) await post(action)(a, single.id);
      const singleEvents = await a.events.take();
      // Ids in an order that is neither creation nor state order.
      const ids = pairs.map((p) => p.twin.id).reverse();
      expect(ok(await bulk(a, { op, ids }))).toEqual({ ok: true, updated: ids.length, failures: [] });
      const bulkEvents = await a.events.take();

      const strip = (i: JsonBody) => ({ ...i, id: undefined, title: undefined });
      for (const { kind, single, twin } of pairs) {
        const [s, b] = [await get(a, single.id), await get(a, twin.id)];
        expectConsistent(b);
        expect(strip(b), kind).toEqual(strip(s));
        const of = (events: typeof bulkEvents, id: string) => events.filter((e) => e.data.item.id === id);
        const [se, be] = [of(singleEvents, single.id), of(bulkEvents, twin.id)];
        expect(
          be.map((e) => e.event),
          kind,
        ).toEqual(se.map((e) => e.event));
        // Each event carries the item as it is after the call, like the single route's.
        for (const e of be) expect(e.data.item, kind).toEqual(b);
        for (const e of se) expect(strip(e.data.item), kind).toEqual(strip(b));
      }
      // One event per changed item for these ops, in the order of the ids.
      const order = bulkEvents.map((e) => e.data.item.id);
      expect(order).toHaveLength(changed);
      expect(order).toEqual(ids.filter((id) => order.includes(id)));

      // The status remembered while archived does not show; unarchiving both twins brings it out.
      t.clock.advance(1000);
      for (const { kind, single, twin } of pairs) {
        expect(strip(await post('unarchive')(a, twin.id)), kind).toEqual(strip(await post('unarchive')(a, single.id)));
      }
    });

    it('move (item.updated), like PATCH project_id', async () => {
      const a = await actor(t);
      const target = ok(await a.c.post('projects', { name: 'Target' }));
      const [one, two] = await items(a, 2);
      t.clock.advance(1000);
      const viaPatch = ok(await a.c.patch(`items/${one.id}`, { project_id: target.id }));
      const single = await eventsByItem(a);
      expect(ok(await bulk(a, { op: 'move', ids: [two.id], payload: { project_id: target.id } }))).toEqual({ ok: true, updated: 1, failures: [] });
      const viaBulk = await eventsByItem(a);
      expect(single[one.id]).toEqual(['item.updated']);
      expect(viaBulk[two.id]).toEqual(single[one.id]);
      expect(await get(a, two.id)).toMatchObject({ project_id: target.id, updated_at: viaPatch.updated_at });
    });
  });

  describe('toggle with payload.is_completed', () => {
    it('sets the value instead of flipping; items that have it count as updated and emit nothing', async () => {
      const a = await actor(t);
      const [open, toComplete] = await items(a, 2);
      const done = ok(await a.c.post(`items/${toComplete.id}/toggle`));
      await a.events.take();
      t.clock.advance(1000);
      const res = ok(await bulk(a, { op: 'toggle', ids: [open.id, done.id], payload: { is_completed: true } }));
      expect(res).toEqual({ ok: true, updated: 2, failures: [] });
      expect(await eventsByItem(a)).toEqual({ [open.id]: ['item.completed'] });
      expect(await get(a, open.id)).toMatchObject({ is_completed: true, status: 'done' });
      expect(await get(a, done.id)).toEqual(done);

      expect(ok(await bulk(a, { op: 'toggle', ids: [open.id, done.id], payload: { is_completed: false } }))).toMatchObject({ updated: 2 });
      expect(await eventsByItem(a)).toEqual({ [open.id]: ['item.uncompleted'], [done.id]: ['item.uncompleted'] });
      expect(ok(await bulk(a, { op: 'toggle', ids: [open.id], payload: { is_completed: false } }))).toMatchObject({ ok: true, updated: 1 });
      expect(await a.events.take()).toEqual([]);
    });

    it('answers 400 for a non-boolean is_completed and changes nothing', async () => {
      const a = await actor(t);
      const [item] = await items(a, 1);
      const before = await fingerprint(t.services.db);
      for (const value of ['true', 1, null]) {
        expectError(await bulk(a, { op: 'toggle', ids: [item.id], payload: { is_completed: value } }), 400, 'bad_request');
      }
      expect(await fingerprint(t.services.db)).toEqual(before);
    });
  });

  describe('delete', () => {
    it('announces deletions in the order of the ids, each item before its subtasks', async () => {
      const a = await actor(t);
      const [first, parent, child, grandchild, last] = await items(a, 5);
      ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id }));
      ok(await a.c.patch(`items/${grandchild.id}`, { parent_id: child.id }));
      const gone = await Promise.all([first, parent, child, grandchild, last].map((i) => get(a, i.id)));
      await a.events.take();
      expect(ok(await bulk(a, { op: 'delete', ids: [last.id, parent.id, first.id] }))).toEqual({ ok: true, updated: 3, failures: [] });
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(Array(5).fill('item.deleted'));
      expect(events.map((e) => e.data.item.id)).toEqual([last.id, parent.id, child.id, grandchild.id, first.id]);
      // Each carries the item as it was.
      for (const e of events) expect(e.data.item).toEqual(gone.find((i) => i.id === e.data.item.id));
    });

    it('deletes subtasks reached from two listed items once', async () => {
      const a = await actor(t);
      const [parent, child, grandchild] = await items(a, 3);
      ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id }));
      ok(await a.c.patch(`items/${grandchild.id}`, { parent_id: child.id }));
      await a.events.take();
      expect(ok(await bulk(a, { op: 'delete', ids: [child.id, parent.id] }))).toEqual({ ok: true, updated: 2, failures: [] });
      expect((await a.events.take()).map((e) => e.data.item.id)).toEqual([child.id, grandchild.id, parent.id]);
    });

    it('deletes subtasks too, each with its own item.deleted', async () => {
      const a = await actor(t);
      const [parent, child, grandchild, other] = await items(a, 4);
      ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id }));
      ok(await a.c.patch(`items/${grandchild.id}`, { parent_id: child.id }));
      await a.events.take();
      expect(ok(await bulk(a, { op: 'delete', ids: [parent.id] }))).toEqual({ ok: true, updated: 1, failures: [] });
      expect(await eventsByItem(a)).toEqual({ [parent.id]: ['item.deleted'], [child.id]: ['item.deleted'], [grandchild.id]: ['item.deleted'] });
      expect(ok(await a.c.get('items')).items.map((i: JsonBody) => i.id)).toEqual([other.id]);
    });

    it.each([
      ['parent first', (p: string, c: string) => [p, c]],
      ['child first', (p: string, c: string) => [c, p]],
    ])('deleting a parent and its subtask in one call counts both, fails neither (%s)', async (_order, order) => {
      const a = await actor(t);
      const [parent, child] = await items(a, 2);
      ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id }));
      await a.events.take();
      expect(ok(await bulk(a, { op: 'delete', ids: order(parent.id, child.id) }))).toEqual({ ok: true, updated: 2, failures: [] });
      expect(await eventsByItem(a)).toEqual({ [parent.id]: ['item.deleted'], [child.id]: ['item.deleted'] });
    });
  });

  describe('move', () => {
    it('moves only the listed items; subtasks and items already there stay, without events', async () => {
      const a = await actor(t);
      const target = ok(await a.c.post('projects', { name: 'Errands' }));
      const [parent, child, already] = await items(a, 3);
      ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id }));
      ok(await a.c.patch(`items/${already.id}`, { project_id: target.id }));
      await a.events.take();
      t.clock.advance(1000);
      const res = ok(await bulk(a, { op: 'move', ids: [parent.id, already.id], payload: { project_id: target.id } }));
      expect(res).toEqual({ ok: true, updated: 2, failures: [] });
      expect(await eventsByItem(a)).toEqual({ [parent.id]: ['item.updated'] });
      expect(await get(a, parent.id)).toMatchObject({ project_id: target.id, updated_at: t.clock.now().toISOString() });
      expect(await get(a, child.id)).toMatchObject({ project_id: a.user.inboxId, parent_id: parent.id });
    });

    it('answers 400 without payload.project_id, 404 for an unknown or foreign project, and changes nothing', async () => {
      const a = await actor(t);
      const b = await actor(t);
      const foreign = ok(await b.c.post('projects', { name: 'Theirs' }));
      const [item] = await items(a, 1);
      const before = await fingerprint(t.services.db);
      expectError(await bulk(a, { op: 'move', ids: [item.id] }), 400, 'bad_request');
      expectError(await bulk(a, { op: 'move', ids: [item.id], payload: {} }), 400, 'bad_request');
      expectError(await bulk(a, { op: 'move', ids: [item.id], payload: { project_id: 'inbox' } }), 400, 'bad_request');
      expectError(await bulk(a, { op: 'move', ids: [item.id], payload: { project_id: UNKNOWN_ID } }), 404, 'not_found');
      expectError(await bulk(a, { op: 'move', ids: [item.id, UNKNOWN_ID], payload: { project_id: foreign.id } }), 404, 'not_found');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('ignores payload fields another op does not use', async () => {
      const a = await actor(t);
      const [item] = await items(a, 1);
      expect(ok(await bulk(a, { op: 'archive', ids: [item.id], payload: { project_id: UNKNOWN_ID, is_completed: true } }))).toEqual({
        ok: true,
        updated: 1,
        failures: [],
      });
      expect(await get(a, item.id)).toMatchObject({ status: 'archived', is_completed: false, project_id: a.user.inboxId });
    });
  });

  describe('failures and limits', () => {
    it("reports ids that are unknown or another user's as not_found, applies the rest, and answers 200", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const [mine] = await items(a, 1);
      const [theirs] = await items(b, 1);
      const res = ok(await bulk(a, { op: 'archive', ids: [UNKNOWN_ID, mine.id, theirs.id] }));
      expect(res).toEqual({
        ok: false,
        updated: 1,
        failures: [
          { id: UNKNOWN_ID, error: 'not_found', message: expect.any(String) },
          { id: theirs.id, error: 'not_found', message: expect.any(String) },
        ],
      });
      expect(await get(a, mine.id)).toMatchObject({ status: 'archived' });
      expect(await get(b, theirs.id)).toMatchObject({ status: 'todo' });
      expect(await eventsByItem(b)).toEqual({});
      expect(ok(await bulk(a, { op: 'delete', ids: [UNKNOWN_ID] }))).toEqual({
        ok: false,
        updated: 0,
        failures: [{ id: UNKNOWN_ID, error: 'not_found', message: expect.any(String) }],
      });
    });

    it('handles and counts a duplicated id once', async () => {
      const a = await actor(t);
      const [item] = await items(a, 1);
      expect(ok(await bulk(a, { op: 'toggle', ids: [item.id, item.id, item.id] }))).toEqual({ ok: true, updated: 1, failures: [] });
      expect(await eventsByItem(a)).toEqual({ [item.id]: ['item.completed'] });
      expect(await get(a, item.id)).toMatchObject({ is_completed: true });
      expect(ok(await bulk(a, { op: 'delete', ids: [UNKNOWN_ID, UNKNOWN_ID] })).failures).toHaveLength(1);
    });

    it('accepts 100 ids and answers 400 for 101, for none, and for a malformed id, changing nothing', async () => {
      const a = await actor(t);
      const mine = await items(a, 3);
      const hundred = [...mine.map((i) => i.id), ...Array.from({ length: 97 }, (_, i) => `0190f5e2-7c3a-7b1d-9e2f-${String(i).padStart(12, '0')}`)];
      const before = await fingerprint(t.services.db);
      const bad: unknown[] = [
        { op: 'archive', ids: [...hundred, UNKNOWN_ID] },
        { op: 'archive', ids: [] },
        { op: 'archive' },
        { op: 'archive', ids: [mine[0].id, 'not-a-uuid'] },
        { op: 'archive', ids: mine[0].id },
        { op: 'archive', ids: [5] },
        { op: 'complete', ids: [mine[0].id] },
        { ids: [mine[0].id] },
        { op: 'archive', ids: [mine[0].id], payload: 'x' },
        [{ op: 'archive', ids: [mine[0].id] }],
      ];
      for (const body of bad) expectError(await bulk(a, body), 400, 'bad_request');
      expectError(await a.c.post('items/bulk', '{"op":"archive",'), 400, 'bad_request');
      expectError(await a.c.post('items/bulk', 'op=archive', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
      expectError(await a.c.send('POST', 'items/bulk', JSON.stringify({ op: 'archive', ids: ['x'.repeat(1024 * 1024)] })), 413, 'payload_too_large');
      expect(await fingerprint(t.services.db)).toEqual(before);
      const res = ok(await bulk(a, { op: 'archive', ids: hundred }));
      expect(res).toMatchObject({ ok: false, updated: 3 });
      expect(res.failures).toHaveLength(97);
    });

    it('answers 401 without a key', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/items/bulk', payload: { op: 'archive', ids: [UNKNOWN_ID] } });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('one transaction per call', () => {
    it('writes every change and event of the call, or none of them', async () => {
      const a = await actor(t);
      const list = await items(a, 5);
      const events = t.services.events;
      const record = events.record.bind(events);
      let calls = 0;
      let archivedBeforeFailure = 0;
      // The outbox fails after every item was written: those writes must be rolled back too.
      events.record = async (trx, _userId, pending) => {
        calls += 1;
        expect(pending).toHaveLength(5);
        const rows = await trx.selectFrom('items').select('status').where('user_id', '=', a.user.id).execute();
        archivedBeforeFailure = rows.filter((r) => r.status === 'archived').length;
        throw new Error('outbox unavailable');
      };
      const before = await fingerprint(t.services.db);
      try {
        const res = await bulk(a, { op: 'archive', ids: list.map((i) => i.id) });
        expect(res.status).toBe(500);
      } finally {
        events.record = record;
      }
      expect(calls, 'one outbox insert for the whole call').toBe(1);
      expect(archivedBeforeFailure).toBe(5);
      expect(await fingerprint(t.services.db)).toEqual(before);
      expect(ok(await bulk(a, { op: 'archive', ids: list.map((i) => i.id) }))).toEqual({ ok: true, updated: 5, failures: [] });
      expect(Object.keys(await eventsByItem(a))).toHaveLength(5);
    });
  });
});
