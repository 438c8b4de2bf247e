import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type SQLite from 'better-sqlite3';
import SqliteDriver from './sqlite-driver.js';

/** How long a reader waits on a lock (WAL readers rarely do: only during a checkpoint's restart or recovery). */
const READER_BUSY_TIMEOUT_MS = 5_000;

export interface OpenOptions {
  readonly?: boolean;
  /** Page cache size in KiB (SQLite's `cache_size = -N`). */
  cacheKiB: number;
}

/**
 * One connection with the service's pragmas. WAL lets readers run beside the writer (our own read
 * connection, the admin CLI, backups); synchronous=NORMAL is durable under WAL except for the last
 * transactions on power loss, the usual trade for an embedded service. No mmap (SQLite's default):
 * every page a mapped connection touched counted in the process's RSS, 60-70 MB more at the peak of
 * a bench run, for no throughput this machine could measure (docs/performance.md, "Memory").
 */
export function openSqlite(path: string, options: OpenOptions): SQLite.Database {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const database = new SqliteDriver(path, { readonly: options.readonly ?? false });
  if (!options.readonly) {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    // The writer never sleeps in SQLite's busy handler: that blocks the event loop. A BEGIN that
    // finds another process's write lock is retried by the driver, awaiting (see group-commit-driver.ts).
    database.pragma('busy_timeout = 0');
  } else {
    database.pragma(`busy_timeout = ${READER_BUSY_TIMEOUT_MS}`);
  }
  database.pragma('foreign_keys = ON');
  database.pragma(`cache_size = -${options.cacheKiB}`);
  return database;
}
