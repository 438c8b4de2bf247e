import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/container.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { insertItem } from '../../src/modules/items/items.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { newestFirst } from '../helpers/seed-items.js';
import { createTestDb, type TestDb } from '../helpers/test-db.js';

/*
 * The search migration on a database that already holds items: rolling it back and applying it
 * again indexes every existing item (SQLite backfills search keys and the FTS index; PostgreSQL
 * computes the generated column), and search then pages them in order.
 */
describe.each(DIALECTS)('search migration on existing items (%s)', (dialect) => {
  let db: TestDb;
  let services: Services;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await services?.close();
    await db?.destroy();
  });

  it('rolls back to the core schema, then indexes the items that exist when it is applied', async () => {
    const migrator = new Migrator({
      db: db.handle.db,
      provider: { getMigrations: async () => migrations },
      ...(db.searchPath ? { migrationTableSchema: db.searchPath } : {}),
    });
    const down = await migrator.migrateTo('2026-11-21-0001-core');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => [r.migrationName, r.direction, r.status])).toEqual([['2026-11-22-0001-search', 'Down', 'Success']]);

    services = createServices(db.handle);
    const user = await services.users.create({ email: 'legacy@example.test' });
    const inbox = await services.projects.requireInbox(db.handle.db, user.id);
    // Three items share a millisecond and are inserted out of id order; one does not match.
    const rows = [
      ['0190f5e2-0000-7000-8000-000000000003', 'Legacy plan alpha', '2026-01-01T00:00:00.000Z'],
      ['0190f5e2-0000-7000-8000-000000000001', 'Legacy plan beta', '2026-01-01T00:00:00.000Z'],
      ['0190f5e2-0000-7000-8000-000000000002', 'Legacy plan gamma', '2026-01-01T00:00:00.000Z'],
      ['0190f5e2-0000-7000-8000-000000000004', 'Legacy plan delta', '2026-01-02T00:00:00.000Z'],
      ['0190f5e2-0000-7000-8000-000000000005', 'Unrelated', '2026-01-03T00:00:00.000Z'],
    ] as const;
    for (const [id, title, created] of rows) {
      await insertItem(db.handle.db, {
        id, user_id: user.id, project_id: inbox.id, parent_id: null, type: 'todo', title, content_md: null,
        is_completed: 0, status: 'todo', status_before_archive: null, due_at: null, archived_at: null,
        client_id: null, created_at: created, updated_at: created,
      });
    }

    await migrateToLatest(db.handle.db);
    const expected = rows.filter(([, title]) => title.startsWith('Legacy')).map(([id, , created_at]) => ({ id, created_at })).sort(newestFirst).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = await services.search.search(user.id, { q: 'legacy PLAN', limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...result.items.map((i) => i.id));
      if (!result.next_cursor) break;
      cursor = result.next_cursor;
    }
    expect(seen).toEqual(expected);
    expect((await services.search.search(user.id, { q: 'gam' })).items.map((i) => i.id)).toEqual([rows[2][0]]);
  });
});
