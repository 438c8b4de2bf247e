import type { Kysely } from 'kysely';

/*
 * Saved filters (contract "Filters and saved views"): a user's named queries in the order they
 * arranged them. Keyed by (user_id, id) like every tenant table. The query is stored as typed and
 * parsed again at each use, so a saved `today` means the day it is read on.
 */
// A migration is written against the tables as they were when it ran, not today's schema type (src/db/schema.ts).
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('saved_filters')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_filters_pk', ['user_id', 'id'])
    .execute();
  // The navigation and GET /filters read a user's filters in their order.
  await db.schema.createIndex('saved_filters_position_idx').on('saved_filters').columns(['user_id', 'position', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('saved_filters').execute();
}
