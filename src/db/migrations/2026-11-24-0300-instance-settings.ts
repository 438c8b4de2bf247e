import type { Kysely } from 'kysely';

/*
 * Settings of the server itself that its owner changes from the admin page (today: whether web
 * sign-up is open). One row per setting; an absent row means the setting's default.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('instance_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('instance_settings').execute();
}
