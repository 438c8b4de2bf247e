import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, iso, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

const ids = (items: { id: string }[]): string[] => items.map((i) => i.id);

describe.each(DIALECTS)('subtasks (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Captures an item a second after the previous one, optionally under a parent. */
  async function item(a: Actor, title: string, parentId?: string): Promise<JsonBody> {
    t.clock.advance(1000);
    const created = await capture(a.c, title);
    if (!parentId) return created;
    return ok(await a.c.patch(`items/${created.id}`, { parent_id: parentId }));
  }

  /** Root → child → grandchild, plus a sibling of the root; the outbox emptied. */
  async function tree(a: Actor) {
    const root = await item(a, 'root');
    const child = await item(a, 'child', root.id);
    const grandchild = await item(a, 'grandchild', child.id);
    const sibling = await item(a, 'sibling');
    await a.events.take();
    t.clock.advance(1000);
    return { root, child, grandchild, sibling };
  }

  async function rejected(a: Actor, target: JsonBody, parentId: unknown): Promise<void> {
    expectError(await a.c.patch(`items/${target.id}`, { parent_id: parentId }), 400, 'bad_request');
    expect(ok(await a.c.get(`items/${target.id}`))).toEqual(target);
    expect(await a.events.take()).toEqual([]);
  }

  describe('PATCH /api/v1/items/{id} parent_id', () => {
    it("sets the parent to one of the user's items and emits item.updated", async () => {
      const a = await actor(t);
      const { root, sibling } = await tree(a);
      const res = ok(await a.c.patch(`items/${sibling.id}`, { parent_id: root.id }));
      expect(res).toEqual({ ...sibling, parent_id: root.id, updated_at: iso(t) });
      const events = await a.events.take();
      expect(events.map((e) => e.event)).toEqual(['item.updated']);
      expect(events[0]!.data.item).toEqual(res);
    });

    it('moves a subtree under another item that is not below it', async () => {
      const a = await actor(t);
      const { child, sibling } = await tree(a);
      expect(ok(await a.c.patch(`items/${child.id}`, { parent_id: sibling.id })).parent_id).toBe(sibling.id);
    });

    it('answers 400 for the item itself', async () => {
      const a = await actor(t);
      const { root } = await tree(a);
      await rejected(a, root, root.id);
    });

    it('answers 400 for a child or a grandchild of the item', async () => {
      const a = await actor(t);
      const { root, child, grandchild } = await tree(a);
      await rejected(a, root, child.id);
      await rejected(a, root, grandchild.id);
    });

    it("answers 400 for an unknown item or another user's item", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const { root } = await tree(a);
      const theirs = await item(b, 'theirs');
      await rejected(a, root, UNKNOWN_ID);
      await rejected(a, root, theirs.id);
    });

    it('answers 400 for a malformed parent_id', async () => {
      const a = await actor(t);
      const { root } = await tree(a);
      await rejected(a, root, 'not-a-uuid');
      await rejected(a, root, 42);
    });

    it('detaches with null', async () => {
      const a = await actor(t);
      const { root, child } = await tree(a);
      const res = ok(await a.c.patch(`items/${child.id}`, { parent_id: null }));
      expect(res.parent_id).toBeNull();
      expect((await a.events.take()).map((e) => e.event)).toEqual(['item.updated']);
      expect(ok(await a.c.get(`items/${root.id}/children`))).toEqual([]);
    });
  });

  describe('GET /api/v1/items/{id}/children', () => {
    it('answers the direct children as an array, newest first', async () => {
      const a = await actor(t);
      const { root, child } = await tree(a);
      const second = await item(a, 'second child', root.id);
      const res = await a.c.get(`items/${root.id}/children`);
      const body = ok(res);
      expect(Array.isArray(body)).toBe(true);
      expect(ids(body)).toEqual([second.id, child.id]);
      expect(body[1]).toEqual(ok(await a.c.get(`items/${child.id}`)));
      expect(res.headers['x-next-cursor']).toBeUndefined();
    });

    it('answers [] for an item without children', async () => {
      const a = await actor(t);
      const { grandchild } = await tree(a);
      expect(ok(await a.c.get(`items/${grandchild.id}/children`))).toEqual([]);
    });

    it('pages with limit and cursor, setting X-Next-Cursor while more remain', async () => {
      const a = await actor(t);
      const parent = await item(a, 'parent');
      const kids: string[] = [];
      for (let i = 0; i < 5; i += 1) kids.unshift((await item(a, `kid ${i}`, parent.id)).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      const sizes: number[] = [];
      do {
        const res = await a.c.get(`items/${parent.id}/children?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        const page = ok(res);
        expect(page.length).toBeGreaterThan(0);
        sizes.push(page.length);
        seen.push(...ids(page));
        const header = res.headers['x-next-cursor'];
        cursor = typeof header === 'string' ? header : undefined;
      } while (cursor);
      expect(sizes).toEqual([2, 2, 1]);
      expect(seen).toEqual(kids);
    });

    it('sets no X-Next-Cursor when the last page is exactly full', async () => {
      const a = await actor(t);
      const { root, child } = await tree(a);
      const res = await a.c.get(`items/${root.id}/children?limit=1`);
      expect(ids(ok(res))).toEqual([child.id]);
      expect(res.headers['x-next-cursor']).toBeUndefined();
    });

    it.each(['0', '-1', '1.5', 'abc'])('answers 400 for limit=%s', async (limit) => {
      const a = await actor(t);
      const { root } = await tree(a);
      expectError(await a.c.get(`items/${root.id}/children?limit=${limit}`), 400, 'bad_request');
    });

    it("answers 400 for a garbage cursor or another listing's cursor", async () => {
      const a = await actor(t);
      const { root } = await tree(a);
      for (let i = 0; i < 3; i += 1) await item(a, `more ${i}`);
      const list = ok(await a.c.get('items?limit=1'));
      expectError(await a.c.get(`items/${root.id}/children?cursor=garbage!`), 400, 'bad_request');
      expectError(await a.c.get(`items/${root.id}/children?cursor=${list.next_cursor}`), 400, 'bad_request');
    });

    it("answers 404 for an unknown, malformed or another user's item", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const theirs = await item(b, 'theirs');
      expectError(await a.c.get(`items/${UNKNOWN_ID}/children`), 404, 'not_found');
      expectError(await a.c.get('items/not-a-uuid/children'), 404, 'not_found');
      expectError(await a.c.get(`items/${theirs.id}/children`), 404, 'not_found');
    });
  });

  describe('DELETE /api/v1/items/{id}', () => {
    it('answers 204 with an empty body', async () => {
      const a = await actor(t);
      const one = await item(a, 'doomed');
      const res = await a.c.delete(`items/${one.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await a.c.get(`items/${one.id}`), 404, 'not_found');
    });

    it('deletes subtasks recursively, one item.deleted per item carrying the item as it was', async () => {
      const a = await actor(t);
      const { root, child, grandchild, sibling } = await tree(a);
      const tagged = ok(await a.c.patch(`items/${grandchild.id}`, { tags: ['deep'], due_at: '2027-01-01T00:00:00Z' }));
      const secondChild = await item(a, 'second child', root.id);
      await a.events.take();
      const before = [ok(await a.c.get(`items/${root.id}`)), ok(await a.c.get(`items/${child.id}`)), tagged, secondChild];
      t.clock.advance(1000);
      expect((await a.c.delete(`items/${root.id}`)).status).toBe(204);
      for (const gone of before) expectError(await a.c.get(`items/${gone.id}`), 404, 'not_found');
      expect(ok(await a.c.get(`items/${sibling.id}`))).toEqual(sibling);
      expect(ids(ok(await a.c.get('items')).items)).toEqual([sibling.id]);
      const events = await a.events.take();
      expect(events.every((e) => e.event === 'item.deleted')).toBe(true);
      expect(events.map((e) => e.created_at)).toEqual(before.map(() => iso(t)));
      const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
      expect(events.map((e) => e.data.item).sort(byId)).toEqual([...before].sort(byId));
    });

    it('deletes only the subtree of a subtask, leaving its parent', async () => {
      const a = await actor(t);
      const { root, child, grandchild } = await tree(a);
      expect((await a.c.delete(`items/${child.id}`)).status).toBe(204);
      expectError(await a.c.get(`items/${grandchild.id}`), 404, 'not_found');
      expect(ok(await a.c.get(`items/${root.id}`))).toEqual(root);
      expect(ok(await a.c.get(`items/${root.id}/children`))).toEqual([]);
      expect((await a.events.take()).map((e) => [e.event, e.data.item.id]).sort()).toEqual(
        [
          ['item.deleted', child.id],
          ['item.deleted', grandchild.id],
        ].sort(),
      );
    });

    it("answers 404 for an unknown, malformed or another user's item and deletes nothing", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const theirs = await item(b, 'theirs');
      await b.events.take();
      expectError(await a.c.delete(`items/${UNKNOWN_ID}`), 404, 'not_found');
      expectError(await a.c.delete('items/not-a-uuid'), 404, 'not_found');
      expectError(await a.c.delete(`items/${theirs.id}`), 404, 'not_found');
      expect(ok(await b.c.get(`items/${theirs.id}`))).toEqual(theirs);
      expect(await b.events.take()).toEqual([]);
    });
  });
});
