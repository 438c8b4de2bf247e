import type SQLite from 'better-sqlite3';
import { sql, type LogEvent } from 'kysely';
import { createPostgresDb } from './postgres/create-postgres-db.js';
import type { Db } from './schema.js';
import { createSqliteDb } from './sqlite/create-sqlite-db.js';
import type { HoldWatch } from './sqlite/hold-watch.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DialectName;
}

export interface CreateDbOptions {
  /** Called once per executed query; tests use it to count queries. */
  onQuery?: (event: LogEvent) => void;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  searchPath?: string;
  /** SQLite: after each commit, with the number of transactions it carried (see group-commit-driver.ts). */
  onCommit?: (units: number) => void;
  /** SQLite: made once per writer connection, run inside each transaction just before it commits (see src/open-database.ts). */
  sqliteBeforeCommit?: (writer: SQLite.Database) => () => void;
  /** SQLite, development and tests: report a transaction that holds the writer too long (the group-commit rule beside Db in schema.ts). */
  sqliteHoldWatch?: HoldWatch;
  /** Where connection errors outside any query go (PostgreSQL's idle clients); stderr by default. */
  onConnectionError?: (error: Error) => void;
}

export function dialectOf(url: string): DialectName {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${url.split(':')[0]}:`);
}

const toStderr = (error: Error): void => {
  process.stderr.write(`database connection error: ${error.message}\n`);
};

export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  const dialect = dialectOf(url);
  if (dialect === 'sqlite') {
    const path = url.slice('sqlite:'.length) || ':memory:';
    return {
      db: createSqliteDb(path, {
        ...(options.onQuery ? { log: options.onQuery } : {}),
        ...(options.onCommit ? { onCommit: options.onCommit } : {}),
        ...(options.sqliteBeforeCommit ? { beforeCommit: options.sqliteBeforeCommit } : {}),
        ...(options.sqliteHoldWatch ? { holdWatch: options.sqliteHoldWatch } : {}),
      }),
      dialect,
    };
  }
  const db = createPostgresDb(url, {
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.searchPath ? { searchPath: options.searchPath } : {}),
    ...(options.onQuery ? { log: options.onQuery } : {}),
    onPoolError: options.onConnectionError ?? toStderr,
  });
  return { db, dialect };
}

export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
