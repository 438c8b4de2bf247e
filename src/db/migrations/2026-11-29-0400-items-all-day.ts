import type { Kysely } from 'kysely';

/*
 * items.all_day (contract "All-day dates"): an item due on a day, not at a time. Its due_at is
 * 00:00 of that day in the user's zone; clients show the date only and it is overdue only once the
 * day has ended. Every existing item keeps its timed due (false).
 */
// A migration is written against the tables as they were when it ran, not today's schema type (src/db/schema.ts).
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('all_day', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('items').dropColumn('all_day').execute();
}
