import type SQLite from 'better-sqlite3';
import { Kysely, type LogEvent } from 'kysely';
import type { DatabaseSchema } from '../schema.js';
import { openSqlite } from './open-sqlite.js';
import type { HoldWatch } from './hold-watch.js';
import { GroupCommitSqliteDialect } from './sqlite-dialect.js';

/**
 * SQLite's page caches, per connection. Reads (lists, search) touch many pages and get most; the
 * writer touches the pages of the rows it changes and their index paths. A page outside the cache
 * is a read() from the OS's file cache.
 */
const READER_CACHE_KIB = 32 * 1024;
const WRITER_CACHE_KIB = 16 * 1024;

export interface SqliteOptions {
  log?: (event: LogEvent) => void;
  /** After each commit, with the number of transactions it carried. */
  onCommit?: (units: number) => void;
  /** Made once per writer connection: work to run inside each transaction just before it commits (the search index's queue). */
  beforeCommit?: (writer: SQLite.Database) => () => void;
  /** Development and tests: report transactions that hold the writer too long. */
  holdWatch?: HoldWatch;
}

export function createSqliteDb(path: string, options: SqliteOptions = {}): Kysely<DatabaseSchema> {
  const inMemory = path === ':memory:';
  const dialect = new GroupCommitSqliteDialect(() => {
    const writer = openSqlite(path, { cacheKiB: WRITER_CACHE_KIB });
    // The reader opens after the writer, which creates the file and switches it to WAL.
    const reader = inMemory ? undefined : openSqlite(path, { readonly: true, cacheKiB: READER_CACHE_KIB });
    return {
      writer,
      ...(reader ? { reader } : {}),
      ...(options.beforeCommit ? { beforeCommit: options.beforeCommit(writer) } : {}),
      ...(options.onCommit ? { onCommit: options.onCommit } : {}),
      ...(options.holdWatch ? { holdWatch: options.holdWatch } : {}),
    };
  }, options.log === undefined);
  return new Kysely<DatabaseSchema>({ dialect, ...(options.log ? { log: options.log } : {}) });
}
