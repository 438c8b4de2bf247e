import type { Kysely } from 'kysely';

/*
 * Email to inbox (issue 34). `email_in_tokens`: each user's secret token, the `{token}` of their
 * address (EMAIL_IN_ADDRESS); rotating replaces the row, so the old token stops at once. It goes
 * with the user. `email_in_lease`: one row per reader name, held by the one process that reads the
 * mailbox until `lease_until` (any process takes it over once that has passed).
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('email_in_tokens')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('email_in_lease')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('email_in_lease').execute();
  await db.schema.dropTable('email_in_tokens').execute();
}
