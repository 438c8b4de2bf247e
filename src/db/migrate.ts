import { Migrator, PostgresIntrospector, sql, type MigrationResult } from 'kysely';
import type { Logger } from 'pino';
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
 * The migrations this code knows that the database has not run, answered by one query: on the usual
 * start, none. Kysely's migrator first introspects every table of the database to find its own,
 * about 30 ms of a 0.5 s start on SQLite, so it is only asked when something is to do. null when
 * there is no migration table yet (a new database).
 */
async function pendingMigrations(db: Db, schema: string | undefined): Promise<{ pending: string[]; unknown: boolean } | null> {
  const table = schema === undefined ? sql.table('kysely_migration') : sql.table(`${schema}.kysely_migration`);
  let rows: { name: string }[];
  try {
    ({ rows } = await sql<{ name: string }>`select name from ${table}`.execute(db));
  } catch {
    return null;
  }
  const known = Object.keys(migrations);
  const applied = new Set(rows.map((row) => row.name));
  return { pending: known.filter((name) => !applied.has(name)), unknown: [...applied].some((name) => !(name in migrations)) };
}

/**
 * Brings the schema up to date. With a logger, an upgrade says what it does at info (how many
 * migrations, then each one applied): an operator who upgrades sees the schema change, and one
 * that fails part-way shows how far it got. An up-to-date database logs nothing.
 */
export async function migrateToLatest(db: Db, logger?: Pick<Logger, 'info'>): Promise<MigrationResult[]> {
  const schema = await migrationTableSchema(db);
  const state = await pendingMigrations(db, schema);
  if (state && state.pending.length === 0 && !state.unknown) return [];
  const pending = state?.pending ?? Object.keys(migrations);
  if (pending.length > 0) logger?.info({ pending: pending.length, from: state ? 'an older schema' : 'an empty database' }, 'migrating the database schema');
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) if (result.status === 'Success') logger?.info({ migration: result.migrationName }, 'applied migration');
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the migration threw; the cause keeps it whole
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results ?? [];
}
