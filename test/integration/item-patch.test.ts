import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, iso, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('item patch (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh user with one item; the outbox is emptied and the clock moved on. */
  async function setup(text = 'Original\nbody'): Promise<{ a: Actor; item: JsonBody }> {
    const a = await actor(t);
    const item = await capture(a.c, text);
    await a.events.take();
    t.clock.advance(1000);
    return { a, item };
  }

  /** PATCHes, expects 200 with one item.updated carrying the answer, and a bumped updated_at. */
  async function patched(a: Actor, id: string, body: unknown): Promise<JsonBody> {
    const item = ok(await a.c.patch(`items/${id}`, body));
    expect(item.updated_at).toBe(iso(t));
    expect(ok(await a.c.get(`items/${id}`))).toEqual(item);
    const events = await a.events.take();
    expect(events.map((e) => e.event)).toEqual(['item.updated']);
    expect(events[0]!.data.item).toEqual(item);
    return item;
  }

  /** Expects the error, the item exactly as before, and no event. */
  async function rejected(a: Actor, item: JsonBody, body: unknown, status: number, code: string): Promise<void> {
    expectError(await a.c.patch(`items/${item.id}`, body), status, code);
    expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
    expect(await a.events.take()).toEqual([]);
  }

  describe('PATCH /api/v1/items/{id}', () => {
    it('sets title and leaves the other fields alone', async () => {
      const { a, item } = await setup();
      const after = await patched(a, item.id, { title: 'Renamed' });
      expect(after).toEqual({ ...item, title: 'Renamed', updated_at: iso(t) });
    });

    it('accepts a 500-char title and answers 400 for 501', async () => {
      const { a, item } = await setup();
      await rejected(a, item, { title: 't'.repeat(501) }, 400, 'bad_request');
      expect((await patched(a, item.id, { title: 't'.repeat(500) })).title).toBe('t'.repeat(500));
    });

    it('sets content_md and null clears it', async () => {
      const { a, item } = await setup();
      expect((await patched(a, item.id, { content_md: '# Notes\n\n- one' })).content_md).toBe('# Notes\n\n- one');
      t.clock.advance(1000);
      expect((await patched(a, item.id, { content_md: null })).content_md).toBeNull();
    });

    it('answers 400 for content_md over 100000 chars', async () => {
      const { a, item } = await setup();
      await rejected(a, item, { content_md: 'c'.repeat(100001) }, 400, 'bad_request');
    });

    it('sets due_at normalised to UTC with milliseconds, and null clears it', async () => {
      const { a, item } = await setup();
      expect((await patched(a, item.id, { due_at: '2026-12-24T18:00:00+01:00' })).due_at).toBe('2026-12-24T17:00:00.000Z');
      t.clock.advance(1000);
      expect((await patched(a, item.id, { due_at: null })).due_at).toBeNull();
    });

    it.each(['2026-12-24T18:00:00', 'soon', 20261224])('answers 400 for due_at %j and changes nothing', async (due) => {
      const { a, item } = await setup();
      await rejected(a, item, { due_at: due }, 400, 'bad_request');
    });

    it('moves the item to a known project', async () => {
      const { a, item } = await setup();
      const project = ok(await a.c.post('projects', { name: 'Errands' }));
      await a.events.take();
      expect((await patched(a, item.id, { project_id: project.id })).project_id).toBe(project.id);
    });

    it("answers 404 for an unknown or another user's project_id and changes nothing", async () => {
      const { a, item } = await setup();
      const other = await actor(t);
      const theirs = ok(await other.c.post('projects', { name: 'Theirs' }));
      await rejected(a, item, { project_id: UNKNOWN_ID }, 404, 'not_found');
      await rejected(a, item, { project_id: theirs.id }, 404, 'not_found');
    });

    it('answers 400 for a malformed project_id', async () => {
      const { a, item } = await setup();
      await rejected(a, item, { project_id: 'inbox' }, 400, 'bad_request');
    });

    it('sets type, and answers 400 for an unknown type', async () => {
      const { a, item } = await setup();
      expect((await patched(a, item.id, { type: 'note' })).type).toBe('note');
      await rejected(a, { ...item, type: 'note', updated_at: iso(t) }, { type: 'event' }, 400, 'bad_request');
    });

    it('changes several fields at once with one item.updated', async () => {
      const { a, item } = await setup();
      const after = await patched(a, item.id, { title: 'T', content_md: 'C', type: 'note', due_at: '2027-01-01T00:00:00Z', tags: ['x'] });
      expect(after).toMatchObject({ title: 'T', content_md: 'C', type: 'note', due_at: '2027-01-01T00:00:00.000Z', tags: ['x'] });
    });

    describe('tags', () => {
      it('sets tags sorted case-insensitively with case preserved', async () => {
        const { a, item } = await setup();
        expect((await patched(a, item.id, { tags: ['gamma', 'Delta', 'alpha', 'Beta'] })).tags).toEqual(['alpha', 'Beta', 'Delta', 'gamma']);
      });

      it('replaces the whole set, and [] clears it', async () => {
        const { a, item } = await setup();
        await patched(a, item.id, { tags: ['one', 'two'] });
        t.clock.advance(1000);
        expect((await patched(a, item.id, { tags: ['three'] })).tags).toEqual(['three']);
        t.clock.advance(1000);
        expect((await patched(a, item.id, { tags: [] })).tags).toEqual([]);
      });

      it('creates unknown names as tags', async () => {
        const { a, item } = await setup();
        await patched(a, item.id, { tags: ['brand-new'] });
        expect(ok(await a.c.get('tags'))).toEqual([{ name: 'brand-new', item_count: 1 }]);
      });

      it('matches an existing tag case-insensitively and keeps its first spelling', async () => {
        const { a, item } = await setup();
        const other = await capture(a.c, 'other');
        ok(await a.c.patch(`items/${other.id}`, { tags: ['Work'] }));
        await a.events.take();
        expect((await patched(a, item.id, { tags: ['WORK', 'home'] })).tags).toEqual(['home', 'Work']);
        const tags = ok(await a.c.get('tags')).filter((tag: { item_count: number }) => tag.item_count > 0);
        expect(tags).toEqual([
          { name: 'home', item_count: 1 },
          { name: 'Work', item_count: 2 },
        ]);
      });

      it('keeps the first spelling of names repeated in one request', async () => {
        const { a, item } = await setup();
        expect((await patched(a, item.id, { tags: ['Urgent', 'urgent', 'URGENT'] })).tags).toEqual(['Urgent']);
      });

      it('trims names', async () => {
        const { a, item } = await setup();
        expect((await patched(a, item.id, { tags: ['  spaced  '] })).tags).toEqual(['spaced']);
      });

      it('treats the same set in another case or order as no change', async () => {
        const { a, item } = await setup();
        const tagged = await patched(a, item.id, { tags: ['Red', 'blue'] });
        t.clock.advance(1000);
        expect(ok(await a.c.patch(`items/${item.id}`, { tags: ['BLUE', 'red'] }))).toEqual(tagged);
        expect(await a.events.take()).toEqual([]);
      });

      it('accepts 20 tags and answers 400 for 21', async () => {
        const { a, item } = await setup();
        const names = Array.from({ length: 21 }, (_, i) => `tag${String(i).padStart(2, '0')}`);
        await rejected(a, item, { tags: names }, 400, 'bad_request');
        expect((await patched(a, item.id, { tags: names.slice(0, 20) })).tags).toEqual(names.slice(0, 20));
      });

      it('accepts a 50-char name, also with surrounding spaces, and answers 400 for 51', async () => {
        const { a, item } = await setup();
        await rejected(a, item, { tags: ['n'.repeat(51)] }, 400, 'bad_request');
        expect((await patched(a, item.id, { tags: ['n'.repeat(50)] })).tags).toEqual(['n'.repeat(50)]);
        t.clock.advance(1000);
        expect((await patched(a, item.id, { tags: [` ${'m'.repeat(50)} `] })).tags).toEqual(['m'.repeat(50)]);
      });

      it.each([
        ['a comma', ['a,b']],
        ['an empty name', ['']],
        ['a blank name', ['   ']],
        ['a non-string name', [5]],
        ['a string instead of an array', 'work'],
      ])('answers 400 for %s and changes nothing', async (_name, tags) => {
        const { a, item } = await setup();
        await rejected(a, item, { tags }, 400, 'bad_request');
      });

      it('leaves the old set in place when the new set is rejected', async () => {
        const { a, item } = await setup();
        const tagged = await patched(a, item.id, { tags: ['keep'] });
        await rejected(a, tagged, { title: 'new title', tags: ['ok', 'not,ok'] }, 400, 'bad_request');
      });
    });

    describe('no change', () => {
      it('answers 200 for an empty body, keeps updated_at and emits nothing', async () => {
        const { a, item } = await setup();
        expect(ok(await a.c.patch(`items/${item.id}`, {}))).toEqual(item);
        expect(await a.events.take()).toEqual([]);
      });

      it('answers 200 for the current values, keeps updated_at and emits nothing', async () => {
        const { a, item } = await setup();
        const same = {
          title: item.title,
          content_md: item.content_md,
          type: item.type,
          project_id: item.project_id,
          due_at: null,
          parent_id: null,
          status: item.status,
          tags: [],
        };
        expect(ok(await a.c.patch(`items/${item.id}`, same))).toEqual(item);
        expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
        expect(await a.events.take()).toEqual([]);
      });

      it('treats the same due_at in another offset as no change', async () => {
        const { a, item } = await setup();
        const dated = await patched(a, item.id, { due_at: '2026-12-01T10:00:00Z' });
        t.clock.advance(1000);
        expect(ok(await a.c.patch(`items/${item.id}`, { due_at: '2026-12-01T11:00:00+01:00' }))).toEqual(dated);
        expect(await a.events.take()).toEqual([]);
      });
    });

    describe('wrong types and unknown fields', () => {
      it.each([
        ['title: 5', { title: 5 }],
        ['title: true', { title: true }],
        ['content_md: 123', { content_md: 123 }],
        ['type: 1', { type: 1 }],
        ['status: true', { status: true }],
        ['project_id: 123', { project_id: 123 }],
        ['parent_id: "123"', { parent_id: '123' }],
        ['due_at: "123"', { due_at: '123' }],
        ['tags: [123]', { tags: [123] }],
      ])('answers 400 for %s and changes nothing', async (_name, body) => {
        const { a, item } = await setup();
        await rejected(a, item, body, 400, 'bad_request');
      });

      it('changes nothing when one field of a body is invalid', async () => {
        const { a, item } = await setup();
        await rejected(a, item, { title: 'new', due_at: 'garbage' }, 400, 'bad_request');
        await rejected(a, item, { title: 'new', project_id: UNKNOWN_ID }, 404, 'not_found');
      });

      it('ignores unknown fields, including read-only ones', async () => {
        const { a, item } = await setup();
        const after = await patched(a, item.id, { title: 'Kept', color: 'red', id: UNKNOWN_ID, created_at: '2000-01-01T00:00:00Z', nested: { x: 1 } });
        expect(after).toEqual({ ...item, title: 'Kept', updated_at: iso(t) });
      });

      it('answers 200 and changes nothing for a body of unknown fields only', async () => {
        const { a, item } = await setup();
        expect(ok(await a.c.patch(`items/${item.id}`, { color: 'red' }))).toEqual(item);
        expect(await a.events.take()).toEqual([]);
      });

      it('answers 400 for JSON that does not parse', async () => {
        const { a, item } = await setup();
        await rejected(a, item, '{"title": ', 400, 'bad_request');
      });

      it('answers 415 for a body that is not JSON', async () => {
        const { a, item } = await setup();
        const res = await a.c.send('PATCH', `items/${item.id}`, 'title=x', { 'content-type': 'text/plain' });
        expectError(res, 415, 'unsupported_media_type');
        expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
      });
    });

    it.each([UNKNOWN_ID, 'not-a-uuid'])('answers 404 for item %s', async (id) => {
      const a = await actor(t);
      expectError(await a.c.patch(`items/${id}`, { title: 'x' }), 404, 'not_found');
    });

    it("answers 404 for another user's item and changes nothing", async () => {
      const { a, item } = await setup();
      const other = await actor(t);
      expectError(await other.c.patch(`items/${item.id}`, { title: 'hijacked' }), 404, 'not_found');
      expect(ok(await a.c.get(`items/${item.id}`))).toEqual(item);
    });
  });
});
