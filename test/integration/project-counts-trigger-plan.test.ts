import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/test-db.js';

/*
 * SQLite's project-count triggers run on every capture, toggle and delete: each of their updates of
 * `projects` must find the row by its key (user_id, id), not walk every user's projects
 * (migration 2026-11-30-1200, decision 0106). Each update in the triggers' bodies is planned with
 * `explain query plan`, the trigger's new./old. columns as parameters.
 */
describe('SQLite project-count triggers', () => {
  let t: TestDb;

  beforeAll(async () => {
    t = await createTestDb('sqlite');
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('find the project by its key in every update of projects', async () => {
    const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger' and name like 'items_count_%'`.execute(
      t.handle.db,
    );
    expect(rows.map((r) => r.name).sort()).toEqual(['items_count_delete', 'items_count_insert', 'items_count_update']);
    const updates = rows.flatMap((r) => r.sql.match(/update projects [^;]*/g) ?? []);
    expect(updates).toHaveLength(4);
    for (const update of updates) {
      const planned = update.replace(/\b(new|old)\.\w+/g, '?');
      const params = planned.split('?').length - 1;
      const plan = await t.handle.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${planned}`, Array<null>(params).fill(null)));
      const details = plan.rows.map((r) => r.detail).join('; ');
      expect(details, update).toMatch(/SEARCH projects USING INDEX sqlite_autoindex_projects_1 \(user_id=\? AND id=\?\)/);
    }
  });
});
