import { CompiledQuery, type Compilable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childrenOfQuery, openItemsQuery } from '../../src/modules/items/items-lists.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/*
 * SQLite plans without statistics here (nothing runs ANALYZE), so its choice of index follows rules
 * (decision 0111). Two list reads chose badly on a large account: a project's top-level page walked
 * the parent index (every top-level item of the account, newest first) instead of the project's,
 * and the subtasks of a page walked every item of the user in creation order to avoid sorting a few
 * dozen rows: 25 and 85 ms at 100,000 items. The plans are pinned here; the answers on both
 * databases. Without statistics the plan does not depend on the rows, so a small account shows it.
 */
describe.each(DIALECTS)('list page reads (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  let projectId: string;
  let inboxId: string;
  const titles = (rows: { title: string | null }[]) => rows.map((r) => r.title);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t);
    projectId = ok(await a.c.post('projects', { name: 'Work' })).id as string;
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(1000);
      const parent = await capture(a.c, `work ${i}`, { project_id: projectId });
      inboxId = (await capture(a.c, `inbox ${i}`)).project_id as string;
      for (const n of [1, 2]) {
        t.clock.advance(1000);
        const child = await capture(a.c, `work ${i}.${n}`, { project_id: projectId });
        ok(await a.c.patch(`items/${child.id}`, { parent_id: parent.id }));
      }
    }
  });
  afterAll(async () => t?.close());

  async function plan(query: Compilable<unknown>): Promise<string> {
    const compiled = query.compile();
    const rows = await t.services.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    return rows.rows.map((r) => r.detail).join('\n');
  }

  it("a project's top-level page: its open items without their subtasks, newest first, through the project's index", async () => {
    const page = openItemsQuery(t.services.db, dialect, a.user.id, { projectId, topLevel: true, limit: 3 });
    expect(titles(await page.execute())).toEqual(['work 3', 'work 2', 'work 1', 'work 0']);
    const inbox = await openItemsQuery(t.services.db, dialect, a.user.id, { projectId: inboxId, topLevel: true, limit: 10 }).execute();
    expect(titles(inbox)).toEqual(['inbox 3', 'inbox 2', 'inbox 1', 'inbox 0']);
    if (dialect === 'sqlite') {
      const detail = await plan(page);
      expect(detail).toMatch(/USING INDEX items_project_idx \(user_id=\? AND project_id=\?\)/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('the subtasks of a page: oldest first, through the parent index and a sort of what it found', async () => {
    const parents = await openItemsQuery(t.services.db, dialect, a.user.id, { projectId, topLevel: true, limit: 10 }).execute();
    const query = childrenOfQuery(
      t.services.db,
      dialect,
      a.user.id,
      parents.map((p) => p.id),
    );
    expect(titles(await query.execute())).toEqual(['work 0.1', 'work 0.2', 'work 1.1', 'work 1.2', 'work 2.1', 'work 2.2', 'work 3.1', 'work 3.2']);
    if (dialect === 'sqlite') expect(await plan(query)).toMatch(/USING INDEX items_parent_idx \(user_id=\? AND parent_id=\?\)/);
  });
});
