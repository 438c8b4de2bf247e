import type { Kysely } from 'kysely';

/*
 * Each user's learned routing model for the organizer (issue 37): one row per user holding the
 * model as JSON (bounded: a few thousand features, see docs/organizer.md). It goes with the user.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('organizer_models')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('organizer_models').execute();
}
