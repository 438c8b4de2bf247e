import { createHash } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../src/db/schema.js';

/**
 * Row counts plus a hash of every row of every application table (found by introspection, so
 * tables added by later migrations are covered): equal fingerprints mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await applicationTables(db)) {
    const order = sql.join(table.columns.map((c) => sql.ref(c)));
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)} order by ${order}`.execute(db);
    const hash = createHash('sha256');
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
    out[table.name] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`;
  }
  return out;
}

/**
 * The tables of this database, sorted by name. On PostgreSQL only those of the current schema:
 * Kysely's introspection reads every schema of the database, so it sees (and trips over) the
 * schemas that other test files create and drop meanwhile.
 */
async function applicationTables(db: Db): Promise<Array<{ name: string; columns: string[] }>> {
  let tables: Array<{ name: string; columns: string[] }>;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
    const byTable = new Map<string, string[]>();
    for (const row of rows) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
    tables = [...byTable].map(([name, columns]) => ({ name, columns }));
  } else {
    tables = (await db.introspection.getTables()).map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) }));
  }
  return tables.filter((t) => !t.name.startsWith('kysely_')).sort((a, b) => a.name.localeCompare(b.name));
}
