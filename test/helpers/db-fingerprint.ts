import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/schema.js';

/**
 * Row counts plus a hash of every row of every application table (found by introspection, so
 * tables added by later migrations are covered): equal fingerprints mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const all = await db.introspection.getTables();
  // On PostgreSQL introspection lists the tables of every schema, other test files' included; keep ours.
  const current = all.some((t) => t.schema !== undefined)
    ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
    : undefined;
  const tables = all.filter((t) => !t.name.startsWith('kysely_') && (current === undefined || t.schema === current));
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
