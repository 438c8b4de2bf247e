import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/container.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { insertItem } from '../../src/modules/items/items.repository.js';
import { renumberSearchKeys } from '../../src/modules/search/search-index.sqlite.js';
import { DIALECTS } from '../helpers/dialects.js';
import { newestFirst } from '../helpers/seed-items.js';
import { createTestDb, whileOthersDropSchemas, type TestDb } from '../helpers/test-db.js';
import { defaultServices } from '../helpers/test-app.js';

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
    const down = await whileOthersDropSchemas(() => migrator.migrateTo('2026-11-21-0001-core'));
    expect(down.error).toBeUndefined();
    // Every migration after core is undone, newest first; the search migration is among them.
    const later = Object.keys(migrations)
      .filter((name) => name > '2026-11-21-0001-core')
      .reverse();
    expect(later).toContain('2026-11-22-0001-search');
    expect(down.results?.map((r) => [r.migrationName, r.direction, r.status])).toEqual(later.map((name) => [name, 'Down', 'Success']));

    services = defaultServices(db.handle);
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
        id,
        user_id: user.id,
        project_id: inbox.id,
        parent_id: null,
        type: 'todo',
        title,
        content_md: null,
        is_completed: 0,
        status: 'todo',
        status_before_archive: null,
        due_at: null,
        archived_at: null,
        client_id: null,
        created_at: created,
        updated_at: created,
      });
    }

    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    const expected = rows
      .filter(([, title]) => title.startsWith('Legacy'))
      .map(([id, , created_at]) => ({ id, created_at }))
      .sort(newestFirst)
      .map((r) => r.id);
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

/** Every id a search answers, page by page (at most 100 pages). */
async function searchPages(services: Services, userId: string, q: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page += 1) {
    const result = await services.search.search(userId, { q, limit, ...(cursor ? { cursor } : {}) });
    seen.push(...result.items.map((i) => i.id));
    if (!result.next_cursor) break;
    cursor = result.next_cursor;
  }
  return seen;
}

/*
 * SQLite's per-user rowid ranges (the search-key-ranges migration): items indexed under the earlier
 * layout get keys in their user's range, searches stay per user and in order across seconds shared
 * by many items, and one user cannot create more items within a second than the layout holds.
 */
describe.runIf(DIALECTS.includes('sqlite'))('search key ranges migration (sqlite)', () => {
  let db: TestDb;
  let services: Services;

  beforeAll(async () => {
    db = await createTestDb('sqlite');
  });
  afterAll(async () => {
    await services?.close();
    await db?.destroy();
  });

  const migrator = () => new Migrator({ db: db.handle.db, provider: { getMigrations: async () => migrations } });

  const searchAll = (userId: string, q: string, limit: number) => searchPages(services, userId, q, limit);

  it('re-keys existing items per user, and search pages each user through their own items in order', async () => {
    const before = await whileOthersDropSchemas(() => migrator().migrateTo('2026-11-22-0016-web'));
    expect(before.error).toBeUndefined();
    services = defaultServices(db.handle);
    const users = [await services.users.create({ email: 'a@example.test' }), await services.users.create({ email: 'b@example.test' })];
    const expected = new Map<string, { id: string; created_at: string }[]>();
    // Per user, 12 matching items over three seconds (several per second and per millisecond), in scrambled id order.
    for (const [u, user] of users.entries()) {
      const inbox = await services.projects.requireInbox(db.handle.db, user.id);
      const mine: { id: string; created_at: string }[] = [];
      for (let i = 0; i < 12; i += 1) {
        const id = `0190f5e2-0000-7000-8000-${String(u)}${String((i * 7) % 12).padStart(11, '0')}`;
        const created_at = `2026-01-01T00:00:0${i % 3}.${String((i % 2) * 500).padStart(3, '0')}Z`;
        await insertItem(db.handle.db, {
          id,
          user_id: user.id,
          project_id: inbox.id,
          parent_id: null,
          type: 'todo',
          title: `Shared word ${i}`,
          content_md: null,
          is_completed: 0,
          status: 'todo',
          status_before_archive: null,
          due_at: null,
          archived_at: null,
          client_id: null,
          created_at,
          updated_at: created_at,
        });
        mine.push({ id, created_at });
      }
      expected.set(user.id, mine.sort(newestFirst));
    }

    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    for (const user of users) {
      const ids = expected.get(user.id)!.map((r) => r.id);
      for (const limit of [1, 2, 5, 50]) expect(await searchAll(user.id, 'shared', limit)).toEqual(ids);
    }
    // New items after the migration land in the same user's range, newest first.
    const fresh = await services.capture.capture(
      { id: users[1]!.id, email: 'b@example.test', plan: 'free', timezone: 'UTC', keyId: 'test' },
      { text: 'Shared word fresh' },
    );
    expect((await searchAll(users[1]!.id, 'shared', 3))[0]).toBe(fresh.item.id);
    expect(await searchAll(users[0]!.id, 'fresh', 3)).toEqual([]);
  });

  it('rolls back to owner tokens and applies again', async () => {
    const down = await whileOthersDropSchemas(() => migrator().migrateTo('2026-11-22-0016-web'));
    // Later migrations roll back first; the last one down is the search-key-ranges migration.
    expect(down.results?.every((r) => r.direction === 'Down' && r.status === 'Success')).toBe(true);
    expect(down.results?.at(-1)?.migrationName).toBe('2026-11-23-0001-search-key-ranges');
    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    const [user] = await db.handle.db.selectFrom('users').select('id').where('email', '=', 'a@example.test').execute();
    expect(await searchAll(user!.id, 'shared', 4)).toHaveLength(12);
  });

  const itemRow = (userId: string, projectId: string, n: number, created_at: string) => ({
    id: `0190f5e3-0000-7000-8000-${String(n).padStart(12, '0')}`,
    user_id: userId,
    project_id: projectId,
    parent_id: null,
    type: 'note' as const,
    title: `burst ${n}`,
    content_md: null,
    is_completed: 0,
    status: 'backlog' as const,
    status_before_archive: null,
    due_at: null,
    archived_at: null,
    client_id: null,
    created_at,
    updated_at: created_at,
  });

  it('takes any number of items of one user within one second', async () => {
    const user = await services.users.create({ email: 'burst@example.test' });
    const inbox = await services.projects.requireInbox(db.handle.db, user.id);
    await db.handle.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 1100; n += 1) await insertItem(trx, itemRow(user.id, inbox.id, n, `2026-02-01T00:00:00.${String(n % 1000).padStart(3, '0')}Z`));
    });
    const ids = await searchAll(user.id, 'burst', 200);
    expect(ids).toHaveLength(1100);
    expect(new Set(ids).size).toBe(1100);
  });
});

/*
 * The search-key-counter migration: keys count a user's items in insertion order. An insert that
 * sorts before the item inserted just before it (an import of older items) marks the user's keys
 * unordered; search still answers exactly, and renumbering puts the keys back in order.
 */
describe.runIf(DIALECTS.includes('sqlite'))('search key counter (sqlite)', () => {
  let t: TestDb;
  let services: Services;
  beforeAll(async () => {
    t = await createTestDb('sqlite');
    services = defaultServices(t.handle);
  });
  afterAll(async () => {
    await services?.close();
    await t?.destroy();
  });

  const unordered = async (userId: string) =>
    (await sql<{ u: number }>`select search_unordered as u from users where id = ${userId}`.execute(t.handle.db)).rows[0]?.u;

  const searchAll = (userId: string, q: string, limit: number) => searchPages(services, userId, q, limit);

  it('marks the keys unordered on an older insert, answers exactly anyway, and renumbering orders them again', async () => {
    const user = await services.users.create({ email: 'order@example.test' });
    const inbox = await services.projects.requireInbox(t.handle.db, user.id);
    const add = (n: number, at: string) =>
      insertItem(t.handle.db, {
        id: `0190f5e4-0000-7000-8000-${String(n).padStart(12, '0')}`,
        user_id: user.id,
        project_id: inbox.id,
        parent_id: null,
        type: 'note',
        title: `order ${n}`,
        content_md: null,
        is_completed: 0,
        status: 'backlog',
        status_before_archive: null,
        due_at: null,
        archived_at: null,
        client_id: null,
        created_at: at,
        updated_at: at,
      });
    for (let n = 0; n < 10; n += 1) await add(n, `2026-03-01T00:00:${String(n + 10)}.000Z`);
    expect(await unordered(user.id)).toBe(0);
    const inOrder = Array.from({ length: 10 }, (_, n) => `0190f5e4-0000-7000-8000-${String(9 - n).padStart(12, '0')}`);
    expect(await searchAll(user.id, 'order', 3)).toEqual(inOrder);

    // Two older items (as an import brings them) go to the end of the key range.
    await add(10, '2026-03-01T00:00:05.000Z');
    await add(11, '2026-03-01T00:00:15.500Z');
    expect(await unordered(user.id)).toBe(1);
    const expected = [...inOrder.slice(0, 4), '0190f5e4-0000-7000-8000-000000000011', ...inOrder.slice(4), '0190f5e4-0000-7000-8000-000000000010'];
    for (const limit of [1, 3, 50]) expect(await searchAll(user.id, 'order', limit)).toEqual(expected);

    await t.handle.db.transaction().execute((trx) => renumberSearchKeys(trx, user.id));
    expect(await unordered(user.id)).toBe(0);
    for (const limit of [1, 3, 50]) expect(await searchAll(user.id, 'order', limit)).toEqual(expected);
    const { rows } = await sql<{ n: number }>`select count(*) as n from items_fts where items_fts match 'order'`.execute(t.handle.db);
    expect(rows[0]?.n).toBe(12);
  });
});
