import { createHash } from 'node:crypto';
import { PostgresIntrospector, sql } from 'kysely';
import type { Db } from '../../src/db/schema.js';

interface TableColumns {
  name: string;
  columns: string[];
}

/**
 * The tables of this database and their columns. On PostgreSQL, Kysely's introspector reads every
 * schema, and other test files create and drop their own schemas in the same database meanwhile
 * (its catalog query then fails on a schema that vanished); so read only the connection's own
 * schema (its search_path) from information_schema.
 */
async function ownTables(db: Db): Promise<TableColumns[]> {
  if (!(db.introspection instanceof PostgresIntrospector)) {
    return (await db.introspection.getTables()).map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) }));
  }
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const row of rows) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
  return [...byTable].map(([name, columns]) => ({ name, columns }));
}

/**
 * Row counts plus a hash of every row of every application table (found by introspection, so
 * tables added by later migrations are covered): equal fingerprints mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await ownTables(db)).filter((t) => !t.name.startsWith('kysely_'));
  const out: Record<string, string> = {};
  for (const table of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    const order = sql.join(table.columns.map((c) => sql.ref(c)));
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)} order by ${order}`.execute(db);
    const hash = createHash('sha256');
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
    out[table.name] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`;
  }
  return out;
}
