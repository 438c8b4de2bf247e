import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/open-database.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestDb, type TestDb } from '../helpers/test-db.js';

describe.each(DIALECTS)('migrating a database that is up to date (%s)', (dialect) => {
  let testDb: TestDb | undefined;
  afterEach(async () => {
    await testDb?.destroy();
    testDb = undefined;
  });

  it('applies nothing, in one look at the migrations table instead of introspecting every table', async () => {
    testDb = await createTestDb(dialect);
    const queries: string[] = [];
    const handle = openDatabase(testDb.url, { searchPath: testDb.searchPath, onQuery: (event) => queries.push(event.query.sql) });
    try {
      expect(await migrateToLatest(handle.db)).toEqual([]);
    } finally {
      await handle.db.destroy();
    }
    // PostgreSQL also asks for the current schema, where the table is.
    expect(queries.filter((text) => /kysely_migration/.test(text))).toHaveLength(1);
    expect(queries.length).toBeLessThanOrEqual(2);
  });

  it('still refuses a database that ran a migration this code does not know', async () => {
    testDb = await createTestDb(dialect);
    const { db } = testDb.handle;
    await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01-0000-from-a-newer-version', '2099-01-01T00:00:00.000Z')`.execute(db);
    await expect(migrateToLatest(db)).rejects.toThrow(/2099-01-01-0000-from-a-newer-version|corrupted/);
  });
});
