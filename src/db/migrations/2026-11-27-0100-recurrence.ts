import type { Kysely } from 'kysely';

/*
 * Recurrence and reminders on items (contract "Recurrence", "Reminders"). A recurring item keeps
 * its rule beside its due date; each completed occurrence is a row of item_completions, which also
 * counts occurrences for a rule's COUNT. reminder_default is the user's minutes-before-due.
 * Portable types only, like the core migration.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('items').addColumn('recurrence_rule', 'text').execute();
  await db.schema.alterTable('items').addColumn('recurrence_from', 'text').execute();
  await db.schema.alterTable('items').addColumn('remind_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('reminder_default', 'integer').execute();
  await db.schema
    .createTable('item_completions')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text')
    .addColumn('completed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_completions_pk', ['user_id', 'id'])
    .addForeignKeyConstraint('item_completions_item_fk', ['user_id', 'item_id'], 'items', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('item_completions_item_idx').on('item_completions').columns(['user_id', 'item_id', 'completed_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('item_completions').execute();
  await db.schema.alterTable('users').dropColumn('reminder_default').execute();
  await db.schema.alterTable('items').dropColumn('remind_at').execute();
  await db.schema.alterTable('items').dropColumn('recurrence_from').execute();
  await db.schema.alterTable('items').dropColumn('recurrence_rule').execute();
}
