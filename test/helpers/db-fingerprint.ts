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
 * PostgreSQL keeps a project's counts, and a tag's, as its row plus changes not yet folded in
 * (decisions 0096, 0113), and any read of the project or tag list folds them: the same counts stored
 * two ways. The fingerprint sees the counts they add up to, so a read that folds is not a write, and
 * a write that appends is.
 */
async function pendingCounts(db: Db, tables: TableColumns[]): Promise<Map<string, { items: number; open: number }>> {
  const sums = new Map<string, { items: number; open: number }>();
  if (!tables.some((t) => t.name === 'project_count_deltas')) return sums;
  const { rows } = await sql<{ project_id: string; item_delta: number | string; open_delta: number | string }>`
    select project_id, item_delta, open_delta from project_count_deltas`.execute(db);
  for (const d of rows) {
    const sum = sums.get(d.project_id) ?? { items: 0, open: 0 };
    sums.set(d.project_id, { items: sum.items + Number(d.item_delta), open: sum.open + Number(d.open_delta) });
  }
  return sums;
}

async function pendingTagCounts(db: Db, tables: TableColumns[]): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  if (!tables.some((t) => t.name === 'tag_count_deltas')) return sums;
  const { rows } = await sql<{ tag_id: string; item_delta: number | string }>`select tag_id, item_delta from tag_count_deltas`.execute(db);
  for (const d of rows) sums.set(d.tag_id, (sums.get(d.tag_id) ?? 0) + Number(d.item_delta));
  return sums;
}

/** A row as its counts add up to, pending changes included. */
function counted(
  table: string,
  row: Record<string, unknown>,
  pending: Map<string, { items: number; open: number }>,
  tagPending: Map<string, number>,
): Record<string, unknown> {
  const project = table === 'projects' ? pending.get(String(row.id)) : undefined;
  if (project) return { ...row, item_count: Number(row.item_count) + project.items, open_count: Number(row.open_count) + project.open };
  const tag = table === 'tags' ? tagPending.get(String(row.id)) : undefined;
  return tag ? { ...row, item_count: Number(row.item_count) + tag } : row;
}

/**
 * Row counts plus a hash of every row of every application table (found by introspection, so
 * tables added by later migrations are covered): equal fingerprints mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await ownTables(db)).filter((t) => !t.name.startsWith('kysely_'));
  const pending = await pendingCounts(db, tables);
  const tagPending = await pendingTagCounts(db, tables);
  const out: Record<string, string> = {};
  for (const table of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    if (table.name === 'project_count_deltas' || table.name === 'tag_count_deltas') continue;
    const order = sql.join(table.columns.map((c) => sql.ref(c)));
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)} order by ${order}`.execute(db);
    const hash = createHash('sha256');
    for (const row of rows) {
      hash.update(`${JSON.stringify(counted(table.name, row, pending, tagPending))}\n`);
    }
    out[table.name] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`;
  }
  return out;
}
