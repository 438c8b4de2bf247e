import { createHash } from 'node:crypto';
import { PostgresIntrospector, sql } from 'kysely';
import type { Db } from '../../src/db/schema.js';

/**
 * Row counts plus a hash of every row of every application table (found by introspection, so
 * tables added by later migrations are covered): equal fingerprints mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  // On PostgreSQL the introspector lists the tables of every schema; other test runs share the
  // database, so only the connection's own schema (its search_path) is this test's data.
  const own = db.introspection instanceof PostgresIntrospector
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const tables = (await db.introspection.getTables()).filter((t) => !t.name.startsWith('kysely_') && (own === undefined || t.schema === own));
  const out: Record<string, string> = {};
  for (const table of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    const order = sql.join(table.columns.map((c) => sql.ref(c.name)));
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)} order by ${order}`.execute(db);
    const hash = createHash('sha256');
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
    out[table.name] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`;
  }
  return out;
}
