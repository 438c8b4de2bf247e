import { createDb, type CreateDbOptions } from './db/create-db.js';
import type { HoldWatch } from './db/sqlite/hold-watch.js';
import type { ServiceDb } from './container.js';
import { databasePortsFor } from './storage-ports.js';

/**
 * The database as the service uses it: createDb with the ports storage-ports.ts chooses for it (on
 * SQLite, the search index's queue applied and the live streams' wake-ups taken before each
 * commit), and the source of commit wake-ups. Every process and test that builds services opens
 * its database here; createDb alone is for tests of the database layer.
 */
export function openDatabase(
  url: string,
  options: Omit<CreateDbOptions, 'sqliteBeforeCommit'> = {},
): ServiceDb & { wakeups: NonNullable<ServiceDb['wakeups']> } {
  const { wakeups, sqliteBeforeCommit } = databasePortsFor(url);
  return { ...createDb(url, { ...options, ...(sqliteBeforeCommit ? { sqliteBeforeCommit } : {}) }), wakeups };
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
