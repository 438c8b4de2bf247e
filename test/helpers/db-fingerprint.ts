import { createHash } from 'node:crypto';
import { PostgresIntrospector, sql } from 'kysely';
import type { Db } from '../../src/db/schema.js';

/** Application tables and their columns; on PostgreSQL only the connection's own schema. */
async function listTables(db: Db): Promise<Array<{ name: string; columns: string[] }>> {
  if (db.introspection instanceof PostgresIntrospector) {
    // Other test runs create and drop schemas in the same database at the same time; asking for
    // this schema alone keeps their churn out of both the answer and the query.
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
    const tables = new Map<string, string[]>();
    for (const row of rows) tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
    return [...tables].map(([name, columns]) => ({ name, columns }));
  }
  return (await db.introspection.getTables()).map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) }));
}

/**
 * Row counts plus a hash of every row of every application table (found by introspection, so
 * tables added by later migrations are covered): equal fingerprints mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await listTables(db)).filter((t) => !t.name.startsWith('kysely_'));
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
