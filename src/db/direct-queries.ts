import type { CompiledQuery, DialectAdapter } from 'kysely';

/**
 * Runs a compiled query outside any transaction the database's own fastest way, below Kysely's
 * executor and connection provider, and answers its rows; undefined when it cannot (a write on
 * SQLite, a database not open yet or closed), and the query then goes through Kysely as usual.
 */
export type DirectQuery = (query: CompiledQuery) => readonly unknown[] | Promise<readonly unknown[]> | undefined;

/** Keyed by the adapter, which each Kysely instance makes once and its transactions share (kysely-internals.test.ts). */
const lanes = new WeakMap<DialectAdapter, DirectQuery>();

/** A dialect offers its lane for the adapter it has just made (sqlite-dialect.ts, create-postgres-db.ts). */
export function offerDirectQueries(adapter: DialectAdapter, run: DirectQuery): void {
  lanes.set(adapter, run);
}

export const directQueriesOf = (adapter: DialectAdapter): DirectQuery | undefined => lanes.get(adapter);
