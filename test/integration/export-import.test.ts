import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

const TODOIST_CSV = [
  'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT',
  'task,Plan the trip @travel,Book the hotel first,4,1,Ann (1),,,en,Europe/Berlin,,',
  'task,Pack the bags,,4,2,Ann (1),,,en,Europe/Berlin,,',
  'note,"Remember the charger, and the adapter",,,,Ann (1),,,en,Europe/Berlin,,',
  ',,,,,,,,,,,',
  'section,Errands,,,,,,,,,,',
  'task,Buy stamps @post @errands,,1,1,Ann (1),,2031-03-04,en,Europe/Berlin,,',
  '',
].join('\n');

describe.each(DIALECTS)('export and import (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function exportJson(a: Actor): Promise<JsonBody> {
    const res = await a.c.get('export');
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="capture-inbox-\d{4}-\d{2}-\d{2}\.json"$/);
    return JSON.parse(res.text);
  }

  async function seed(a: Actor): Promise<{ parent: JsonBody; child: JsonBody; note: JsonBody }> {
    const project = (await a.c.post('projects', { name: 'Garden' })).body;
    t.clock.advance(1000);
    const parent = await capture(a.c, 'Plant tulips', { project_id: project.id, due_at: '2031-04-01T09:00:00.000Z' });
    t.clock.advance(1000);
    const child = await capture(a.c, 'Buy bulbs', { project_id: project.id });
    ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id, tags: ['shopping'] }));
    ok(await a.c.post(`items/${child.id}/toggle`));
    t.clock.advance(1000);
    const note = await capture(a.c, 'Soil notes\nAcidic near the fence', { type: 'note' });
    ok(await a.c.patch(`items/${note.id}`, { status: 'archived' }));
    return { parent, child, note };
  }

  describe('GET /api/v1/export', () => {
    it('streams the export document with every project, tag and item, archived included', async () => {
      const a = await actor(t);
      const { parent, child, note } = await seed(a);
      const doc = await exportJson(a);
      expect(doc).toMatchObject({ format: 'capture-inbox-export', version: 1, user: { email: a.user.email, timezone: 'UTC' } });
      expect(doc.projects.map((p: JsonBody) => p.name).sort()).toEqual(['Garden', 'Inbox']);
      expect(doc.tags).toEqual([{ name: 'shopping', item_count: 1 }]);
      const byId = new Map(doc.items.map((i: JsonBody) => [i.id, i]));
      expect(byId.size).toBe(3);
      expect(byId.get(child.id)).toMatchObject({ parent_id: parent.id, is_completed: true, tags: ['shopping'] });
      expect(byId.get(note.id)).toMatchObject({ status: 'archived', type: 'note' });
    });

    it('renders markdown: a heading per project, task lines, subtasks indented, due dates and tags inline', async () => {
      const a = await actor(t);
      await seed(a);
      const res = await a.c.get('export?format=markdown');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(res.text).toContain('# Garden\n\n- [ ] Plant tulips (due 2031-04-01 09:00)\n  - [x] Buy bulbs @shopping\n');
      expect(res.text).toContain('# Inbox\n\n**Soil notes** (archived)\n\nAcidic near the fence\n');
    });

    it('answers 400 for an unknown format', async () => {
      const a = await actor(t);
      expectError(await a.c.get('export?format=xml'), 400, 'bad_request');
    });
  });

  describe('POST /api/v1/import', () => {
    it('imports an export into another account, keeping ids and timestamps, emitting item.created per item', async () => {
      const from = await actor(t);
      const { parent, child } = await seed(from);
      const doc = await exportJson(from);
      const to = await actor(t);
      const res = ok(await to.c.post('import', doc));
      expect(res).toEqual({ imported: { projects: 1, items: 3, tags: 1 }, skipped: [], dropped: [] });
      const copied = ok(await to.c.get(`items/${child.id}`));
      expect(copied).toMatchObject({ parent_id: parent.id, is_completed: true, status: 'done', tags: ['shopping'], created_at: child.created_at });
      expect((await to.events.names()).filter((n) => n === 'item.created')).toHaveLength(3);
      // The old timestamps still find their way into search.
      const found = ok(await to.c.get('items/search?q=tulips'));
      expect(found.items.map((i: JsonBody) => i.id)).toEqual([parent.id]);
    });

    it('skips items the account holds already, so a second import creates no duplicates', async () => {
      const a = await actor(t);
      await seed(a);
      const doc = await exportJson(a);
      await a.events.take();
      const res = ok(await a.c.post('import', doc));
      expect(res.imported).toEqual({ projects: 0, items: 0, tags: 0 });
      expect(res.skipped).toEqual([0, 1, 2].map((i) => ({ line_or_index: i, reason: 'exists' })));
      expect(await a.events.take()).toEqual([]);
      expect((await exportJson(a)).items).toHaveLength(3);
    });

    it('finds imported items with old timestamps by search, newest first, across pages, among newer items', async () => {
      const a = await actor(t);
      const inbox = a.user.inboxId;
      t.clock.advance(1000);
      const recent = await capture(a.c, 'Alpha recent note');
      const old = (i: number, at: string) => ({
        id: `0190f5e2-7c3a-7b1d-9e2f-00000000000${i}`,
        project_id: inbox,
        type: 'todo',
        title: `Alpha imported ${i}`,
        content_md: null,
        is_completed: false,
        status: 'todo',
        due_at: null,
        parent_id: null,
        tags: [],
        archived_at: null,
        created_at: at,
        updated_at: at,
      });
      const doc = {
        format: 'capture-inbox-export',
        version: 1,
        projects: [{ id: inbox, name: 'Inbox', is_default: true }],
        items: [old(1, '2019-03-01T10:00:00.000Z'), old(2, '2021-07-15T08:30:00.000Z'), old(3, '2021-07-15T08:30:00.500Z'), old(4, '1970-01-01T00:00:00.000Z')],
      };
      expect(ok(await a.c.post('import', doc)).imported.items).toBe(4);
      const ids: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 5; pages += 1) {
        const page: JsonBody = ok(await a.c.get(`items/search?q=alpha&limit=2${cursor ? `&cursor=${cursor}` : ''}`));
        ids.push(...page.items.map((i: JsonBody) => i.id));
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      expect(ids).toEqual([recent.id, old(3, '').id, old(2, '').id, old(1, '').id, old(4, '').id]);
      // Older still, and a capture after the import: both in their place.
      expect(ok(await a.c.post('import', { ...doc, items: [old(5, '1969-12-31T23:59:59.000Z')] })).imported.items).toBe(1);
      t.clock.advance(1000);
      const later = await capture(a.c, 'Alpha later note');
      const all: JsonBody = ok(await a.c.get('items/search?q=alpha&limit=10'));
      expect(all.items.map((i: JsonBody) => i.id)).toEqual([later.id, ...ids, old(5, '').id]);
    });

    it('imports nothing from a malformed document (400), whatever part is wrong', async () => {
      const from = await actor(t);
      await seed(from);
      const doc = await exportJson(from);
      const to = await actor(t);
      ok(await to.c.get('me'));
      const before = await fingerprint(t.services.db);
      const broken = structuredClone(doc);
      broken.items[2].status = 'someday';
      expectError(await to.c.post('import', broken), 400, 'bad_request');
      const orphan = structuredClone(doc);
      orphan.items[0].parent_id = '0190f5e2-7c3a-7b1d-9e2f-123456789abc';
      orphan.items[1].parent_id = '0190f5e2-7c3a-7b1d-9e2f-123456789abc';
      orphan.items[2].parent_id = '0190f5e2-7c3a-7b1d-9e2f-123456789abc';
      expectError(await to.c.post('import', orphan), 400, 'bad_request');
      expectError(await to.c.post('import', { format: 'something-else', version: 1, projects: [], items: [] }), 400, 'bad_request');
      expectError(await to.c.post('import', 'name,email\nx,y\n', { 'content-type': 'text/csv' }), 400, 'bad_request');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('stores a link with a scheme other than http, https or mailto as its text, from our JSON and from Todoist CSV (issue 45)', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'Links');
      const doc = await exportJson(a);
      const b = await actor(t);
      doc.items.find((i: JsonBody) => i.id === item.id).content_md =
        '[run](javascript:alert(1)) ![p](data:image/png;base64,AA) <vbscript:x> [ok](https://example.org/a) [m](mailto:s@example.org)';
      ok(await b.c.post('import', doc));
      expect(ok(await b.c.get(`items/${item.id}`)).content_md).toBe('run p vbscript:x [ok](https://example.org/a) [m](mailto:s@example.org)');
      const csv = ['TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,DATE', 'task,From Todoist,"[open](file:///etc/passwd) [site](https://example.org)",4,1,', ''].join(
        '\n',
      );
      ok(await b.c.post('import', csv, { 'content-type': 'text/csv' }));
      const imported = (ok(await b.c.get('items')).items as JsonBody[]).find((i) => i.title === 'From Todoist');
      expect(imported.content_md).toBe('open [site](https://example.org)');
    });

    it("reads Todoist's CSV: subtasks by INDENT, @labels as tags, sections as projects, notes into the text", async () => {
      const a = await actor(t);
      const res = ok(await a.c.post('import', TODOIST_CSV, { 'content-type': 'text/csv' }));
      expect(res).toEqual({ imported: { projects: 1, items: 3, tags: 3 }, skipped: [], dropped: [{ line_or_index: 7, field: 'priority', value: 'p1' }] });
      const doc = await exportJson(a);
      const byTitle = new Map(doc.items.map((i: JsonBody) => [i.title, i]));
      const trip = byTitle.get('Plan the trip') as JsonBody;
      expect(trip).toMatchObject({ type: 'todo', status: 'todo', tags: ['travel'], content_md: 'Book the hotel first' });
      expect(byTitle.get('Pack the bags')).toMatchObject({ parent_id: trip.id, content_md: 'Remember the charger, and the adapter' });
      const errands = doc.projects.find((p: JsonBody) => p.name === 'Errands');
      expect(byTitle.get('Buy stamps')).toMatchObject({ project_id: errands.id, tags: ['errands', 'post'], due_at: '2031-03-04T00:00:00.000Z', all_day: true });
      const again = ok(await a.c.post('import', TODOIST_CSV, { 'content-type': 'text/csv' }));
      expect(again.imported.items).toBe(0);
      expect(again.skipped.map((s: JsonBody) => s.reason)).toEqual(['exists', 'exists', 'exists']);
      // Line 7 was skipped whole: no note about what it would have lost.
      expect(again.skipped.map((s: JsonBody) => s.line_or_index)).toContain(7);
      expect(again.dropped).toEqual([]);
    });

    it("takes Todoist's own export: a meta row and other unknown row types are skipped and reported, priority and deadline reported as dropped, recurrence carried", async () => {
      const a = await actor(t);
      const csv = [
        'TYPE,CONTENT,DESCRIPTION,IS_COLLAPSED,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG',
        'meta,view_style=list,,,,,,,,,,,,,',
        'task,Water the plants,,,4,1,Ann (1),,every 3 days,en,Europe/Berlin,,,,',
        'task,File the taxes,,,1,1,Ann (1),,,en,Europe/Berlin,,,2031-05-31,en',
        'bogus,x,,,,,,,,,,,,,',
        '',
      ].join('\n');
      const res = ok(await a.c.post('import', csv, { 'content-type': 'text/csv' }));
      expect(res).toEqual({
        imported: { projects: 0, items: 2, tags: 0 },
        skipped: [
          { line_or_index: 2, reason: 'unknown row type "meta"' },
          { line_or_index: 5, reason: 'unknown row type "bogus"' },
        ],
        dropped: [
          { line_or_index: 4, field: 'priority', value: 'p1' },
          { line_or_index: 4, field: 'deadline', value: '2031-05-31' },
        ],
      });
      const items = (await exportJson(a)).items;
      expect(items.map((i: JsonBody) => i.title).sort()).toEqual(['File the taxes', 'Water the plants']);
      const plants = items.find((i: JsonBody) => i.title === 'Water the plants');
      expect(plants.recurrence).toEqual({ rule: 'FREQ=DAILY;INTERVAL=3', from: 'due' });
      expect(plants.due_at).not.toBeNull();
    });

    it('carries recurrence, remind_at and completions from an export into another account', async () => {
      const a = await actor(t);
      const item = ok(
        await a.c.post('capture', {
          text: 'water',
          due_at: '2030-01-01T08:00:00.000Z',
          remind_at: '2030-01-01T07:30:00.000Z',
          recurrence: { rule: 'FREQ=DAILY;INTERVAL=3', from: 'due' },
        }),
        201,
      );
      ok(await a.c.post(`items/${item.id}/toggle`));
      const doc = await exportJson(a);
      expect(doc.completions).toEqual([{ item_id: item.id, completed_at: expect.any(String), due_at: '2030-01-01T08:00:00.000Z' }]);
      const b = await actor(t);
      ok(await b.c.post('import', doc));
      const copy = ok(await b.c.get(`items/${item.id}`));
      expect(copy).toMatchObject({
        recurrence: { rule: 'FREQ=DAILY;INTERVAL=3', from: 'due' },
        due_at: '2030-01-04T08:00:00.000Z',
        remind_at: '2030-01-04T07:30:00.000Z',
      });
      expect(ok(await b.c.get(`items/${item.id}/completions`)).completions).toEqual(doc.completions.map(({ item_id: _i, ...c }: JsonBody) => c));
      const bad = {
        ...doc,
        items: doc.items.map((i: JsonBody) => ({ ...i, id: '0190f5e2-7c3a-7b1d-9e2f-00000000beef', recurrence: { rule: 'FREQ=SECONDLY', from: 'due' } })),
        completions: [],
      };
      const c = await actor(t);
      expectError(await c.c.post('import', bad), 400, 'bad_request');
    });

    it('takes a body over 1 MiB and refuses one over 20 MiB with 413', async () => {
      const a = await actor(t);
      const big = { format: 'capture-inbox-export', version: 1, projects: [], items: [], padding: 'x'.repeat(2 * 1024 * 1024) };
      ok(await a.c.post('import', big));
      const huge = `{"format":"capture-inbox-export","version":1,"projects":[],"items":[],"padding":"${'x'.repeat(21 * 1024 * 1024)}"}`;
      expectError(await a.c.post('import', huge), 413, 'payload_too_large');
    });

    it('refuses other content types with 415', async () => {
      const a = await actor(t);
      expectError(await a.c.post('import', '<xml/>', { 'content-type': 'application/xml' }), 415, 'unsupported_media_type');
    });
  });
});
