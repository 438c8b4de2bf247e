import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type LogEvent,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { DatabaseSchema, Db } from './schema.js';

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
}

export function dialectOf(url: string): DialectName {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${url.split(':')[0]}:`);
}

/** How long a statement waits for another process's write lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
/** Between two tries of a transaction's BEGIN: short, so a waiting process gets the next turn. */
const BEGIN_RETRY_MS = 1;

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets readers (admin CLI, backups) run beside the server; NORMAL is durable under WAL
  // except for the last transactions on power loss, the usual trade for an embedded service.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // A 64 MiB page cache and memory-mapped reads: without them every page a query touches beyond
  // the default 2 MiB cache is a read() system call, which dominates listing and search at 100k
  // items per user. mmap_size only reserves address space; the OS page cache backs it.
  database.pragma('cache_size = -65536');
  database.pragma('mmap_size = 1073741824');
  return database;
}

/** Prepared statements kept per connection, least recently used dropped first. */
const STATEMENT_CACHE_SIZE = 500;
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

type RowBuilder = (values: unknown[]) => Record<string, unknown>;
const rowBuilders = new Map<string, RowBuilder>();

/**
 * A function that turns one raw row into an object literal with these keys. An object literal is
 * created from one prebuilt shape; assigning keys one by one walks the shape transitions for each
 * row, which cost 20 µs on a page of 50 items. Names come from our own statements and are quoted
 * with JSON.stringify; `__proto__` would set the prototype in a literal, so it gets the slow path.
 */
function rowBuilder(names: readonly string[]): RowBuilder {
  const key = JSON.stringify(names);
  let build = rowBuilders.get(key);
  if (!build) {
    build = names.includes('__proto__')
      ? (values) => {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < names.length; i += 1) Object.defineProperty(row, names[i]!, { value: values[i], enumerable: true, writable: true, configurable: true });
          return row;
        }
      : (new Function('v', `return { ${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')} };`) as RowBuilder);
    rowBuilders.set(key, build);
  }
  return build;
}

/**
 * A statement that returns rows as objects built in JavaScript from better-sqlite3's raw arrays.
 * better-sqlite3 builds each row object property by property from native code; building it here
 * lets V8 reuse one object shape, which halves the cost of turning a page of 50 items into rows.
 */
function objectRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const raw = statement.raw(true);
  const namesNow = () => raw.columns().map((column) => column.name);
  let names = namesNow();
  let build = rowBuilder(names);
  const toObject = (values: unknown[]): Record<string, unknown> => {
    // Another connection changed the schema and SQLite re-prepared a `select *` with new columns.
    if (values.length !== names.length) build = rowBuilder((names = namesNow()));
    return build(values);
  };
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(values);
    },
  };
}

/**
 * Kysely opens transactions with a deferred BEGIN. Ours all write, and a deferred transaction that
 * reads before writing gets SQLITE_BUSY at once (busy_timeout does not apply) when another process
 * wrote in between, so BEGIN takes the write lock up front. It does so without busy_timeout: SQLite's
 * busy handler sleeps in the calling thread, which froze the whole event loop, and backs off to
 * 100 ms sleeps, so a second process (WORKERS > 1) lost the lock to the first again and again and
 * some requests waited seconds. The driver below retries BUSY every millisecond instead, awaiting.
 */
function beginImmediate(database: SQLite.Database): SqliteStatement {
  const statement = database.prepare('begin immediate');
  return {
    reader: false,
    run(parameters) {
      // Not a prepared statement: a busy_timeout pragma takes effect when it is compiled.
      database.pragma('busy_timeout = 0');
      try {
        return statement.run(parameters);
      } finally {
        database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    },
    all: () => [],
    iterate: () => [][Symbol.iterator](),
  };
}

const isBusy = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

/** Kysely's SQLite driver, but a BEGIN that finds the write lock taken awaits and tries again. */
class TurnTakingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (;;) {
      try {
        await super.beginTransaction(connection);
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
        await sleep(BEGIN_RETRY_MS);
      }
    }
  }
}

class TurnTakingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new TurnTakingSqliteDriver(this.#config);
  }
}

/**
 * Kysely prepares each query it runs and better-sqlite3 keeps no statement cache, so every query
 * was parsed and planned again. Reusing a statement per SQL text is safe: the connection runs one
 * query at a time (Kysely holds a mutex on it), and SQLite re-prepares a statement by itself when
 * the schema changes. The row objects' column names, though, are read once per statement: a schema
 * change on this connection (a migration) drops every cached statement first.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const begin = beginImmediate(database);
  return {
    close: () => database.close(),
    prepare(text) {
      if (text === 'begin') return begin;
      if (SCHEMA_CHANGE.test(text)) statements.clear();
      let statement = statements.get(text);
      if (statement) statements.delete(text);
      else statement = objectRows(database.prepare(text));
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  const dialect = dialectOf(url);
  const log = options.onQuery;
  if (dialect === 'sqlite') {
    const path = url.slice('sqlite:'.length) || ':memory:';
    const db = new Kysely<DatabaseSchema>({
      dialect: new TurnTakingSqliteDialect({ database: withStatementCache(openSqlite(path)) }),
      ...(log ? { log } : {}),
    });
    return { db, dialect };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  return { db, dialect };
}

export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
