import { Migrator, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Db } from './schema.js';

export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results ?? [];
}
