import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, expectError, ok } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * The Todoist CSV import writes 500 items a batch in one transaction (decision 0101): these rows
 * sit on the batches' edges.
 */

const HEADER = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE';
const TASKS = 1_203;

/** Task i is `Task i`; the 501st task (first of the second batch) is a subtask of the 500th, whose notes follow the subtask's parent row. */
function bigCsv(fault?: { line: number; row: string }): string {
  const rows = [HEADER];
  for (let i = 0; i < TASKS; i += 1) {
    if (fault && rows.length + 1 === fault.line) rows.push(fault.row);
    rows.push(`task,Task ${i} @tag${i % 3},,4,${i === 500 ? 2 : 1},,,${i % 100 === 0 ? '2031-03-04' : ''},en,`);
    if (i === 499) rows.push('note,First note,,,,,,,,', 'note,Second note,,,,,,,,');
  }
  rows.push('section,Later,,,,,,,,', 'task,In a section,,4,1,,,,en,', '');
  return rows.join('\n');
}

describe.each(DIALECTS)('POST /api/v1/import, Todoist CSV in batches (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const importCsv = (c: JsonBody, csv: string) => c.post('import', csv, { 'content-type': 'text/csv' });

  it('imports every row across the batches: a parent in the batch before, notes held with their task, tags, one item.created each in file order', async () => {
    const a = await actor(t, 'pro');
    const res = ok(await importCsv(a.c, bigCsv()));
    expect(res).toEqual({ imported: { projects: 1, items: TASKS + 1, tags: 3 }, skipped: [], dropped: [] });
    const doc = JSON.parse((await a.c.get('export')).text);
    const byTitle = new Map<string, JsonBody>(doc.items.map((i: JsonBody) => [i.title, i]));
    expect(byTitle.size).toBe(TASKS + 1);
    expect(byTitle.get('Task 499')).toMatchObject({ parent_id: null, content_md: 'First note\n\nSecond note', tags: ['tag1'] });
    expect(byTitle.get('Task 500')).toMatchObject({ parent_id: byTitle.get('Task 499').id, tags: ['tag2'] });
    expect(byTitle.get('Task 1000')).toMatchObject({ due_at: '2031-03-04T00:00:00.000Z', all_day: true, tags: ['tag1'] });
    expect(byTitle.get('In a section').project_id).toBe(doc.projects.find((p: JsonBody) => p.name === 'Later').id);
    const events = await a.events.take();
    expect(events.every((e) => e.event === 'item.created')).toBe(true);
    expect(events.map((e) => (e.data as { item: JsonBody }).item.title)).toEqual([...Array.from({ length: TASKS }, (_, i) => `Task ${i}`), 'In a section']);
    // The Inbox lists them in the file's order (stamped a millisecond apart, newest first).
    const page = ok(await a.c.get('items?limit=3'));
    expect(page.items.map((i: JsonBody) => i.title)).toEqual(['Task 0', 'Task 1', 'Task 2']);
    const found = ok(await a.c.get('items/search?q=1202'));
    expect(found.items.map((i: JsonBody) => i.title)).toContain('Task 1202');
  });

  it('finds every row again on a second import, across the batches: nothing created, each reported as there', async () => {
    const a = await actor(t, 'pro');
    ok(await importCsv(a.c, bigCsv()));
    await a.events.take();
    const again = ok(await importCsv(a.c, bigCsv()));
    expect(again.imported).toEqual({ projects: 0, items: 0, tags: 0 });
    expect(again.skipped).toHaveLength(TASKS + 1);
    expect(again.skipped.every((s: JsonBody) => s.reason === 'exists')).toBe(true);
    expect(await a.events.take()).toEqual([]);
  });

  it('rolls back the batches written before a fault at row 1,000, or a CSV that breaks at its end', async () => {
    const a = await actor(t, 'pro');
    ok(await a.c.get('me'));
    const before = await fingerprint(t.services.db);
    expectError(await importCsv(a.c, bigCsv({ line: 1_000, row: 'task,,,4,1,,,,en,' })), 400, 'bad_request');
    const res = await importCsv(a.c, bigCsv({ line: 1_000, row: 'task,,,4,1,,,,en,' }));
    expect(res.body.message).toBe('line 1000: a task without content');
    expectError(await importCsv(a.c, `${bigCsv()}task,"never closed,,4,1\n`), 400, 'bad_request');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  // The planner sees the rows the import writes (decision 0108): without it, each foreign-key check
  // walked the user's rows, and 100,000 rows took 97 s instead of 21.
  // The items' columns the account's next reads plan on, and the tags' tables: analyzed with only
  // (user_id, id), a 100,000-row import's Markdown export then took 35.8 s instead of 6 (decision 0108).
  it.runIf(dialect === 'postgres')(
    'lets PostgreSQL analyze the items and their tags inside the import as they grow (once at 500 rows, again at 1,000)',
    async () => {
      const a = await actor(t, 'pro');
      const analyzed = async () => {
        const { rows } = await sql<{ relname: string; n: string }>`select relname, analyze_count as n from pg_stat_user_tables
        where relid in ('items'::regclass, 'item_tags'::regclass, 'tags'::regclass)`.execute(t.services.db);
        return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
      };
      const grown = (now: Record<string, number>, then: Record<string, number>) => Object.fromEntries(Object.keys(now).map((k) => [k, now[k]! - then[k]!]));
      const before = await analyzed();
      ok(await importCsv(a.c, bigCsv()));
      expect(grown(await analyzed(), before)).toEqual({ items: 2, item_tags: 2, tags: 2 });
      const { rows } = await sql<{ attname: string }>`select attname from pg_stats where schemaname = current_schema() and tablename = 'items'`.execute(
        t.services.db,
      );
      expect(rows.map((r) => r.attname)).toEqual(expect.arrayContaining(['user_id', 'id', 'project_id', 'parent_id', 'due_at', 'status', 'is_completed']));
      ok(await importCsv(a.c, 'TYPE,CONTENT\ntask,Small\n'));
      expect(grown(await analyzed(), before)).toEqual({ items: 2, item_tags: 2, tags: 2 });
    },
  );
});
