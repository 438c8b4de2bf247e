import type { CompiledQuery, DialectAdapter } from 'kysely';

/** Runs one statement on the writer inside the unit and answers its rows (none for a statement without RETURNING). */
export type RunInUnit = <R>(query: CompiledQuery<R>) => R[];

/**
 * A write transaction (a unit of the group commit, group-commit-driver.ts) whose statements all run
 * in one synchronous call: better-sqlite3 runs statements synchronously, so a change that needs no
 * await between them (read the row, write it, write its events) skips Kysely's transaction, its
 * executor and a promise job per statement. `work` throwing rolls its statements back and the
 * error is the answer; otherwise the answer comes after the commit, as a transaction's does.
 * Undefined before the database is open and after it closed: the caller then takes Kysely's path.
 */
export type SyncUnits = <T>(work: (run: RunInUnit) => T) => Promise<T> | undefined;

/** Keyed by the adapter, as direct-queries.ts: a Kysely instance and its transactions share it. */
const units = new WeakMap<DialectAdapter, SyncUnits>();

export function offerSyncUnits(adapter: DialectAdapter, run: SyncUnits): void {
  units.set(adapter, run);
}

/** SQLite's synchronous units for this database, or undefined (PostgreSQL; SQLite with Kysely's query log on). */
export const syncUnitsOf = (adapter: DialectAdapter): SyncUnits | undefined => units.get(adapter);
