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

export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const schema = await migrationTableSchema(db);
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
