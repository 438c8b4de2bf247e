import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { CreateDbOptions, DbHandle, DialectName } from '../../src/db/create-db.js';
import { openDatabase, writerHoldWarning } from '../../src/open-database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export interface TestDb {
  handle: DbHandle;
  /** The URL another process (the CLI, a second server) can use to reach the same data. */
  url: string;
  /** PostgreSQL schema name, when the dialect is postgres. */
  searchPath?: string;
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database per call: a temporary SQLite file, or a new schema inside the
 * PostgreSQL database of TEST_DATABASE_URL (dropped again by destroy()).
 */
export async function createTestDb(dialect: DialectName, options: CreateDbOptions = {}): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-test-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
    // Tests break the group-commit rule loudly: a transaction that holds the writer is named on stderr.
    const warn = writerHoldWarning((heldMs, stack) =>
      process.stderr.write(`warning: a transaction held the SQLite writer for ${Math.round(heldMs)} ms\n${stack}\n`),
    );
    const handle = openDatabase(url, { sqliteHoldWatch: warn, ...options });
    await migrateToLatest(handle.db);
    return {
      handle,
      url,
      async destroy() {
        await handle.db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDatabase(base, { ...options, searchPath: schema, poolSize: 5 });
  await migrateWhileOthersDropSchemas(handle.db);
  return {
    handle,
    url: base,
    searchPath: schema,
    async destroy() {
      await handle.db.destroy();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * Kysely's migrator introspects every schema of the database; a test file dropping its schema at
 * that moment makes the introspection fail ("schema t_… does not exist"). That is other tests'
 * churn, not a migration problem, so a few bounded retries are right here (and only for migrations:
 * PostgreSQL runs them in one transaction, so a failed try leaves nothing behind). A Migrator's
 * result carries its error instead of throwing it; either way only another test's schema retries.
 */
export async function whileOthersDropSchemas<T>(run: () => Promise<T>): Promise<T> {
  const churn = (error: unknown) => error instanceof Error && /schema "t_[0-9a-f]+" does not exist/.test(error.message);
  for (let attempt = 1; ; attempt += 1) {
    const last = attempt >= 4;
    let result: T;
    try {
      result = await run();
    } catch (error) {
      if (last || !churn(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      continue;
    }
    const failed = typeof result === 'object' && result !== null && 'error' in result ? result.error : undefined;
    if (last || !churn(failed)) return result;
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}

const migrateWhileOthersDropSchemas = async (db: DbHandle['db']): Promise<void> => {
  await whileOthersDropSchemas(() => migrateToLatest(db));
};
