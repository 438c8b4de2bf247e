import type { Kysely } from 'kysely';

/*
 * Undo kept by the server (issue 47, decision 0076): each undoable action in place writes the
 * inverse of what it did, tied to the item's version right after it. Undoing takes the row
 * (deleted as it is used: once only) and applies the inverse if the item has not changed since.
 * Rows expire after minutes; the service prunes a user's expired rows as it writes a new one.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('undo_actions')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    // The item's ETag right after the action: the inverse applies only to that version.
    .addColumn('item_etag', 'text', (c) => c.notNull())
    // The inverse (modules/undo/inverse.ts), as JSON.
    .addColumn('inverse', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('undo_actions_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('undo_actions_expiry_idx').on('undo_actions').columns(['user_id', 'expires_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('undo_actions').execute();
}
