import type { Kysely } from 'kysely';

/*
 * Attachments (contract "Attachments (fourth wave)", decision 0084). Files are stored once per
 * content under FILES_DIR, named by their SHA-256: `attachment_blobs` has one row per stored
 * content, `attachments` one row per file on an item (many may share a blob). An item's rows go
 * with it (cascade); its bytes go when no attachment uses them any more (the collector).
 *
 * items.attachments_json is the item's list of attachments as every item response shows it, kept
 * by the attachments module in the transaction that changes the list: every query that loads items
 * already selects the item's columns, so the list costs no query of its own. items.captured_by_key
 * is the API key that captured the item (null for the web, imports and older items): a key with
 * only the capture scope may attach files to what it captured in the last 10 minutes.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('attachments_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('items').addColumn('captured_by_key', 'text').execute();
  await db.schema
    .createTable('attachment_blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    // bigint: a Pro user's files add up past 2 GiB.
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().references('attachment_blobs.sha256'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachments_pk', ['user_id', 'id'])
    .addForeignKeyConstraint('attachments_item_fk', ['user_id', 'item_id'], 'items', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('attachments_item_idx').on('attachments').columns(['user_id', 'item_id', 'created_at']).execute();
  await db.schema.createIndex('attachments_sha_idx').on('attachments').columns(['sha256', 'user_id']).execute();
  // Downloads look an attachment up by its id alone before checking its owner.
  await db.schema.createIndex('attachments_id_idx').on('attachments').column('id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('attachments').execute();
  await db.schema.dropTable('attachment_blobs').execute();
  await db.schema.alterTable('items').dropColumn('captured_by_key').execute();
  await db.schema.alterTable('items').dropColumn('attachments_json').execute();
}
