import { createDb, dialectOf, type CreateDbOptions } from './db/create-db.js';
import type { HoldWatch } from './db/sqlite/group-commit-driver.js';
import type { ServiceDb } from './container.js';
import { sqliteCommitWakeups } from './modules/live/commit-wakeups.sqlite.js';
import { postgresCommitWakeups } from './modules/live/commit-wakeups.postgres.js';
import { applySearchQueue } from './modules/search/search-index.sqlite.js';

/**
 * The database as the service uses it: createDb with what the features hand the database layer
 * (on SQLite, the search index's queue applied and the live streams' wake-ups taken before each
 * commit), and the source of commit wake-ups (PostgreSQL: LISTEN). Every process and test that
 * builds services opens its database here; createDb alone is for tests of the database layer.
 */
export function openDatabase(
  url: string,
  options: Omit<CreateDbOptions, 'sqliteBeforeCommit'> = {},
): ServiceDb & { wakeups: NonNullable<ServiceDb['wakeups']> } {
  if (dialectOf(url) === 'postgres') {
    return { ...createDb(url, options), wakeups: postgresCommitWakeups({ url }) };
  }
  const live = sqliteCommitWakeups();
  const sqliteBeforeCommit: NonNullable<CreateDbOptions['sqliteBeforeCommit']> = (writer) => {
    const search = applySearchQueue(writer);
    const wakeups = live.beforeCommit(writer);
    return () => {
      search();
      wakeups();
    };
  };
  return { ...createDb(url, { ...options, sqliteBeforeCommit }), wakeups: live.source };
}

/** A unit normally holds the writer for well under a millisecond; an import of thousands of items, some tenths of a second. */
const HOLD_WARNING_MS = 250;

/**
 * The group-commit rule enforced where it can be seen (schema.ts, `Db`): in development
 * (LOG_LEVEL debug or trace) and in tests, a transaction that holds the SQLite writer past
 * HOLD_WARNING_MS is reported with the stack that began it.
 */
export function writerHoldWarning(warn: (heldMs: number, stack: string) => void): HoldWatch {
  return { thresholdMs: HOLD_WARNING_MS, report: warn };
}
