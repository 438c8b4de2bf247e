import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilterPage } from '../../src/modules/filters/filter-query.repository.js';
import { parseFilter } from '../../src/modules/filters/language/parse.js';
import { resolveFilter } from '../../src/modules/filters/language/resolve.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/*
 * The filters' partial indexes of open items (migration 2026-11-30-0600-filter-indexes, decisions
 * 0074 and 0087): the statement the compiler writes for an open-items query can use them. SQLite
 * uses a partial index only when the query holds its condition as written, which is why the
 * compiler writes the open statuses as literals; were they bound values again, this fails on SQLite.
 * PostgreSQL's choice depends on the table's size, so there the plan is asked for with sequential
 * and bitmap scans off: an open-items index must still be one it can use for the query.
 */
describe.each(DIALECTS)('filter indexes (%s)', (dialect) => {
  let t: TestApp;
  let userId: string;
  let workId: string;
  const now = new Date('2026-11-26T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(now);
    const user = await createUser(t);
    userId = user.id;
    workId = (await t.services.projects.findOrCreate(userId, 'Work')).id;
    const acting = { id: userId, email: user.email, plan: 'free' as const, timezone: 'UTC', keyId: null };
    for (let i = 0; i < 30; i += 1) {
      const due = new Date(now.getTime() + (i - 15) * 86_400_000).toISOString();
      const { item } = await t.services.capture.capture(acting, {
        text: `item ${i}`,
        due_at: due,
        ...(i % 3 === 0 ? { project_id: workId, tags: ['calls'] } : {}),
      });
      if (i % 2 === 0) await t.services.items.toggle(userId, item.id);
    }
  });
  afterAll(async () => t?.close());

  /** The plan of the page statement the compiler writes for `query`. */
  async function planOf(query: string): Promise<string> {
    const parsed = parseFilter(query);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const resolved = resolveFilter(parsed.filter, { now, timezone: 'UTC', readDate: () => null });
    if (!resolved.ok) throw new Error(resolved.error.message);
    const db = t.services.db;
    const ctx = { dialect, userId, projectIdsOf: () => [workId] };
    const page = compileFilterPage(db, resolved.plan, ctx, { order: 'due', after: undefined, limit: 50 });
    if (dialect === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]));
      return rows.rows.map((r) => r.detail).join('\n');
    }
    return db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      await trx.executeQuery(CompiledQuery.raw('set local enable_bitmapscan = off'));
      const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${page.sql}`, [...page.parameters]));
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('walks the open items by due date for today | overdue', async () => {
    // PostgreSQL, on a table this small, may as well take the project index (user_id first): either is a walk of open items.
    expect(await planOf('today | overdue')).toMatch(dialect === 'sqlite' ? /items_open_due_idx/ : /items_open_(project_)?due_idx/);
  });

  it('walks the open items by due date for 7 days & !@waiting and overdue', async () => {
    expect(await planOf('7 days & !@waiting')).toMatch(dialect === 'sqlite' ? /items_open_due_idx/ : /items_open_(project_)?due_idx/);
    expect(await planOf('overdue')).toMatch(dialect === 'sqlite' ? /items_open_due_idx/ : /items_open_(project_)?due_idx/);
  });

  it('walks the open items of the project by due date for #Work & @calls', async () => {
    expect(await planOf('#Work & @calls')).toMatch(/items_open_project_due_idx/);
  });

  it('walks the week of open items by due date for search: & 7 days, reading the word’s hits once on SQLite', async () => {
    const plan = await planOf('search: item & 7 days');
    if (dialect === 'sqlite') {
      // The IN list of decision 0105: the hits read once (a LIST SUBQUERY), not FTS probed per item of the week.
      expect(plan).toMatch(/items_open_due_idx/);
      expect(plan).toMatch(/LIST SUBQUERY[\s\S]*items_fts VIRTUAL TABLE INDEX 0:M/);
    } else {
      expect(plan).toMatch(/items_open_(project_)?due_idx|search_vector/);
    }
  });

  it('leaves them alone when done items are asked for too', async () => {
    expect(await planOf('#Work & all')).not.toMatch(/items_open_/);
  });
});
