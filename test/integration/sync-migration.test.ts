import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/container.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestDb, whileOthersDropSchemas, type TestDb } from '../helpers/test-db.js';
import { defaultServices } from '../helpers/test-app.js';

/*
 * The sync migration on a database that already holds outbox events: they keep their written order
 * in the feed (and their dispatch state), and new events continue after them.
 */
describe.each(DIALECTS)('sync migration on existing events (%s)', (dialect) => {
  let db: TestDb;
  let services: Services;
  const migrator = () =>
    new Migrator({
      db: db.handle.db,
      provider: { getMigrations: async () => migrations },
      ...(db.searchPath ? { migrationTableSchema: db.searchPath } : {}),
    });

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await services?.close();
    await db?.destroy();
  });

  it('orders existing events by when they were written, keeps what was dispatched, and continues after them', async () => {
    const down = await whileOthersDropSchemas(() => migrator().migrateTo('2026-11-23-0001-search-key-ranges'));
    expect(down.error).toBeUndefined();
    services = defaultServices(db.handle);
    const user = await services.users.create({ email: 'old@example.test' });
    // Written in scrambled id order; the first two were dispatched already.
    const rows = [
      ['0190f5e2-0000-7000-8000-000000000003', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z'],
      ['0190f5e2-0000-7000-8000-000000000001', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:02.000Z'],
      ['0190f5e2-0000-7000-8000-000000000002', '2026-01-01T00:00:03.000Z', null],
    ] as const;
    for (const [id, created_at, dispatched_at] of rows) {
      const payload = JSON.stringify({ id, event: 'item.created', created_at, data: { item: { id } } });
      await sql`insert into outbox_events (id, user_id, event, item_id, payload, created_at, dispatched_at)
        values (${id}, ${user.id}, 'item.created', ${id}, ${payload}, ${created_at}, ${dispatched_at})`.execute(db.handle.db);
    }

    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    const feed = await services.events.changes(user.id, {});
    expect(feed.changes.map((c) => c.id)).toEqual(rows.map(([id]) => id));
    const kept = await db.handle.db.selectFrom('outbox_events').select(['id', 'dispatched_at']).orderBy('seq').execute();
    expect(kept).toEqual(rows.map(([id, , dispatched_at]) => ({ id, dispatched_at })));

    // New events continue after the old ones.
    const item = await services.capture.capture({ id: user.id, email: 'old@example.test', plan: 'free', timezone: 'UTC', keyId: 'test' }, { text: 'new' });
    const after = await services.events.changes(user.id, { cursor: feed.next_cursor });
    expect(after.changes.map((c) => ('item' in c.data ? c.data.item.id : c.data.filter.id))).toEqual([item.item.id]);
  });

  it('rolls back and applies again', async () => {
    const down = await whileOthersDropSchemas(() => migrator().migrateTo('2026-11-23-0001-search-key-ranges'));
    expect(down.error).toBeUndefined();
    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    const [user] = await db.handle.db.selectFrom('users').select('id').execute();
    expect((await services.events.changes(user!.id, {})).changes).toHaveLength(4);
  });
});
