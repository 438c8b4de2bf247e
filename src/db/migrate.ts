import { Migrator, PostgresIntrospector, sql, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Db } from './schema.js';

/**
 * On PostgreSQL Kysely looks for its migration tables in every schema unless told which one, so a
 * database holding other migrated schemas (parallel test runs, other tenants) would skip creating
 * them here. Pin them to the connection's current schema (the search_path).
 */
async function migrationTableSchema(db: Db): Promise<string | undefined> {
  if (!(db.introspection instanceof PostgresIntrospector)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

/**
 * Whether the database has run exactly the migrations this code knows: the usual start, answered by
 * one query. Kysely's migrator first introspects every table of the database to find its own, about
 * 30 ms of a 0.5 s start on SQLite. Anything else (no table yet, one missing, one this code does not
 * know) goes to the migrator, which applies or refuses as before.
 */
async function upToDate(db: Db, schema: string | undefined): Promise<boolean> {
  const table = schema === undefined ? sql.table('kysely_migration') : sql.table(`${schema}.kysely_migration`);
  let rows: { name: string }[];
  try {
    ({ rows } = await sql<{ name: string }>`select name from ${table}`.execute(db));
  } catch {
    return false;
  }
  const known = Object.keys(migrations);
  const applied = new Set(rows.map((row) => row.name));
  return applied.size === known.length && known.every((name) => applied.has(name));
}

export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const schema = await migrationTableSchema(db);
  if (await upToDate(db, schema)) return [];
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the migration threw; the cause keeps it whole
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results ?? [];
}
