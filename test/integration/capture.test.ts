import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ITEM_FIELDS, iso, ok, UNKNOWN_ID, UUID, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('capture (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Nothing was stored for this user: no item and no event. */
  async function expectNothingCreated(a: Actor): Promise<void> {
    expect(ok(await a.c.get('items')).items).toEqual([]);
    expect(await a.events.take()).toEqual([]);
  }

  describe('POST /api/v1/capture', () => {
    it('answers 201 with every Item field, tags [], archived_at null and ai null', async () => {
      const a = await actor(t);
      const res = await a.c.post('capture', { text: 'Buy milk' });
      const body = ok(res, 201);
      expect(Object.keys(body).sort()).toEqual([...ITEM_FIELDS, 'ai'].sort());
      expect(body).toMatchObject({
        project_id: a.user.inboxId,
        type: 'todo',
        title: 'Buy milk',
        content_md: null,
        is_completed: false,
        status: 'todo',
        due_at: null,
        parent_id: null,
        tags: [],
        archived_at: null,
        created_at: iso(t),
        updated_at: iso(t),
        ai: null,
      });
      expect(body.id).toMatch(UUID);
      const { ai: _ai, ...item } = body;
      expect(ok(await a.c.get(`items/${body.id}`))).toEqual(item);
    });

    it('writes one item.created event with { id, event, created_at, data: { item } }', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'Call the plumber');
      const events = await a.events.take();
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(Object.keys(event!).sort()).toEqual(['created_at', 'data', 'event', 'id']);
      expect(event).toEqual({ id: expect.stringMatching(UUID), event: 'item.created', created_at: iso(t), data: { item } });
    });

    it('ignores unknown fields', async () => {
      const a = await actor(t);
      const body = ok(await a.c.post('capture', { text: 'Plain', status: 'done', id: UNKNOWN_ID, color: 'red' }), 201);
      expect(body).toMatchObject({ title: 'Plain', status: 'todo', is_completed: false, tags: [] });
      expect(body.id).not.toBe(UNKNOWN_ID);
    });

    describe('title and content_md', () => {
      const cases: [string, string, string, string | null][] = [
        ['a single line is the title, content_md null', 'Buy milk', 'Buy milk', null],
        ['the first non-empty line, trimmed, is the title', '\n \n  Buy milk  \n2 liters', 'Buy milk', '2 liters'],
        ['the rest is trimmed', 'Plan trip\n\n  - book hotel\n  - pack  \n\n', 'Plan trip', '- book hotel\n  - pack'],
        ['nothing but blank lines after the title gives content_md null', 'Title\n   \n\t\n', 'Title', null],
        ['CRLF line ends split like LF', '\r\n  Call Bob \r\nabout the invoice\r\n', 'Call Bob', 'about the invoice'],
        ['a first line of exactly 500 chars is the whole title', `${'a'.repeat(500)}\nbody`, 'a'.repeat(500), 'body'],
      ];
      it.each(cases)('%s', async (_name, text, title, content) => {
        const a = await actor(t);
        expect(await capture(a.c, text)).toMatchObject({ title, content_md: content });
      });

      it('cuts a first line over 500 chars to 500 and puts the whole trimmed text in content_md', async () => {
        const a = await actor(t);
        const long = 'b'.repeat(501);
        const item = await capture(a.c, `\n  ${long}\nsecond line\n  `);
        expect(item.title).toBe('b'.repeat(500));
        expect(item.content_md).toBe(`${long}\nsecond line`);
      });

      it('keeps a single over-long line whole in content_md', async () => {
        const a = await actor(t);
        const long = 'c'.repeat(700);
        expect(await capture(a.c, long)).toMatchObject({ title: 'c'.repeat(500), content_md: long });
      });
    });

    describe('type and status', () => {
      it('defaults to type todo with status todo', async () => {
        const a = await actor(t);
        expect(await capture(a.c, 'x')).toMatchObject({ type: 'todo', status: 'todo', is_completed: false });
      });

      it('gives a note status backlog', async () => {
        const a = await actor(t);
        expect(await capture(a.c, 'x', { type: 'note' })).toMatchObject({ type: 'note', status: 'backlog', is_completed: false });
      });

      it('gives an explicit todo status todo', async () => {
        const a = await actor(t);
        expect(await capture(a.c, 'x', { type: 'todo' })).toMatchObject({ type: 'todo', status: 'todo' });
      });

      it('answers 400 for an unknown type', async () => {
        const a = await actor(t);
        expectError(await a.c.post('capture', { text: 'x', type: 'task' }), 400, 'bad_request');
        await expectNothingCreated(a);
      });
    });

    describe('project_id', () => {
      it('puts the item in a known project', async () => {
        const a = await actor(t);
        const project = ok(await a.c.post('projects', { name: 'Work' }));
        expect(await capture(a.c, 'x', { project_id: project.id })).toMatchObject({ project_id: project.id });
      });

      it('puts the item in Inbox when omitted', async () => {
        const a = await actor(t);
        expect(await capture(a.c, 'x')).toMatchObject({ project_id: a.user.inboxId });
      });

      it('answers 404 for an unknown project and creates nothing', async () => {
        const a = await actor(t);
        expectError(await a.c.post('capture', { text: 'x', project_id: UNKNOWN_ID }), 404, 'not_found');
        await expectNothingCreated(a);
      });

      it("answers 404 for another user's project and creates nothing", async () => {
        const a = await actor(t);
        const other = await actor(t);
        const project = ok(await other.c.post('projects', { name: 'Secret' }));
        expectError(await a.c.post('capture', { text: 'x', project_id: project.id }), 404, 'not_found');
        await expectNothingCreated(a);
      });

      it('answers 400 for a malformed project_id', async () => {
        const a = await actor(t);
        expectError(await a.c.post('capture', { text: 'x', project_id: 'not-a-uuid' }), 400, 'bad_request');
        await expectNothingCreated(a);
      });
    });

    describe('due_at', () => {
      const accepted: [string, string][] = [
        ['2026-12-01T09:30:00+02:00', '2026-12-01T07:30:00.000Z'],
        ['2026-12-01T07:30:00Z', '2026-12-01T07:30:00.000Z'],
        ['2026-12-01T07:30:00.5Z', '2026-12-01T07:30:00.500Z'],
        ['2026-11-30T23:30:00-05:00', '2026-12-01T04:30:00.000Z'],
      ];
      it.each(accepted)('normalises %s to UTC with milliseconds', async (input, stored) => {
        const a = await actor(t);
        expect(await capture(a.c, 'x', { due_at: input })).toMatchObject({ due_at: stored });
      });

      it.each(['2026-12-01T09:30:00', '2026-12-01', 'tomorrow', ''])('answers 400 for %j and creates nothing', async (input) => {
        const a = await actor(t);
        expectError(await a.c.post('capture', { text: 'x', due_at: input }), 400, 'bad_request');
        await expectNothingCreated(a);
      });
    });

    describe('client_id', () => {
      it('replays with 200, the same item, no second item and no second event', async () => {
        const a = await actor(t);
        const clientId = '0190f5e2-0000-7000-8000-000000000001';
        const first = ok(await a.c.post('capture', { text: 'Once', client_id: clientId }), 201);
        await a.events.take();
        t.clock.advance(1000);
        const again = ok(await a.c.post('capture', { text: 'Twice', type: 'note', client_id: clientId }), 200);
        expect(again).toEqual(first);
        expect(ok(await a.c.get('items')).items.map((i: { id: string }) => i.id)).toEqual([first.id]);
        expect(await a.events.take()).toEqual([]);
      });

      it('replays the item as it is now', async () => {
        const a = await actor(t);
        const clientId = '0190f5e2-0000-7000-8000-000000000002';
        const first = ok(await a.c.post('capture', { text: 'Draft', client_id: clientId }), 201);
        const patched = ok(await a.c.patch(`items/${first.id}`, { title: 'Final' }));
        const again = ok(await a.c.post('capture', { text: 'Draft', client_id: clientId }), 200);
        expect(again).toEqual({ ...patched, ai: null });
      });

      it('is per user: another user with the same client_id gets a new item', async () => {
        const a = await actor(t);
        const b = await actor(t);
        const clientId = '0190f5e2-0000-7000-8000-000000000003';
        const first = ok(await a.c.post('capture', { text: 'A', client_id: clientId }), 201);
        const second = ok(await b.c.post('capture', { text: 'B', client_id: clientId }), 201);
        expect(second.id).not.toBe(first.id);
        expect(second.title).toBe('B');
      });

      it('answers 400 for a client_id that is not a UUID', async () => {
        const a = await actor(t);
        expectError(await a.c.post('capture', { text: 'x', client_id: 'abc' }), 400, 'bad_request');
        await expectNothingCreated(a);
      });
    });

    describe('organize', () => {
      it('answers 402 pro_required on the free plan and creates nothing', async () => {
        const a = await actor(t, 'free');
        expectError(await a.c.post('capture', { text: 'call mom tomorrow', organize: true }), 402, 'pro_required');
        await expectNothingCreated(a);
      });

      it('runs the organizer on Pro and answers 201 with ai (its own tests are in organizer.test.ts)', async () => {
        const a = await actor(t, 'pro');
        const body = ok(await a.c.post('capture', { text: 'call mom tomorrow', organize: true }), 201);
        expect(body.ai).toMatchObject({ engine: 'local', type: 'todo', title: 'call mom' });
        expect(body.title).toBe('call mom');
      });

      it('stores the item as given with organize false on the free plan', async () => {
        const a = await actor(t, 'free');
        const body = ok(await a.c.post('capture', { text: 'call mom tomorrow', organize: false }), 201);
        expect(body).toMatchObject({ title: 'call mom tomorrow', due_at: null, ai: null });
      });

      it('answers 400 for organize "true" (no coercion) and creates nothing', async () => {
        const a = await actor(t, 'pro');
        expectError(await a.c.post('capture', { text: 'x', organize: 'true' }), 400, 'bad_request');
        await expectNothingCreated(a);
      });
    });

    describe('text', () => {
      it.each([
        ['empty', { text: '' }],
        ['whitespace only', { text: ' \n\t\r\n ' }],
        ['missing', {}],
        ['not a string', { text: 5 }],
      ])('answers 400 when text is %s and creates nothing', async (_name, body) => {
        const a = await actor(t);
        const res = await a.c.post('capture', body);
        expectError(res, 400, 'bad_request');
        expect(Array.isArray(res.body.details)).toBe(true);
        await expectNothingCreated(a);
      });

      it('accepts 100000 characters', async () => {
        const a = await actor(t);
        const text = 'x'.repeat(100000);
        expect(await capture(a.c, text)).toMatchObject({ title: 'x'.repeat(500), content_md: text });
      });

      it('accepts 100000 characters after trim even with surrounding whitespace', async () => {
        const a = await actor(t);
        const text = 'y'.repeat(100000);
        expect(await capture(a.c, `  ${text}\n`)).toMatchObject({ content_md: text });
      });

      it('answers 400 for 100001 characters and creates nothing', async () => {
        const a = await actor(t);
        expectError(await a.c.post('capture', { text: 'x'.repeat(100001) }), 400, 'bad_request');
        await expectNothingCreated(a);
      });
    });
  });
});
