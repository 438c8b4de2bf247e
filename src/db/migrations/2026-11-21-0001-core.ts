import type { Kysely } from 'kysely';

/*
 * Portable types only (text, boolean, integer) so one migration runs on SQLite and PostgreSQL.
 * Every tenant table is keyed by (user_id, id) and references other tenant tables through
 * user_id too: a row can never point at another user's row, and the tables can be distributed
 * by user_id (e.g. Citus) without changing a key.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_user_idx').on('api_keys').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('projects_pk', ['user_id', 'id'])
    .addUniqueConstraint('projects_name_uq', ['user_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('content_md', 'text')
    .addColumn('is_completed', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_before_archive', 'text')
    .addColumn('due_at', 'text')
    .addColumn('archived_at', 'text')
    .addColumn('client_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('items_pk', ['user_id', 'id'])
    .addUniqueConstraint('items_client_id_uq', ['user_id', 'client_id'])
    .addForeignKeyConstraint('items_project_fk', ['user_id', 'project_id'], 'projects', ['user_id', 'id'])
    .addForeignKeyConstraint('items_parent_fk', ['user_id', 'parent_id'], 'items', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('items_created_idx').on('items').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('items_updated_idx').on('items').columns(['user_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('items_project_idx').on('items').columns(['user_id', 'project_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('items_parent_idx').on('items').columns(['user_id', 'parent_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tags_pk', ['user_id', 'id'])
    .addUniqueConstraint('tags_name_uq', ['user_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('item_tags')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_tags_pk', ['user_id', 'item_id', 'tag_id'])
    .addForeignKeyConstraint('item_tags_item_fk', ['user_id', 'item_id'], 'items', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('item_tags_tag_fk', ['user_id', 'tag_id'], 'tags', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('item_tags_tag_idx').on('item_tags').columns(['user_id', 'tag_id']).execute();

  await db.schema
    .createTable('outbox_events')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('outbox_events_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('outbox_events_created_idx').on('outbox_events').columns(['created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['outbox_events', 'item_tags', 'tags', 'items', 'projects', 'api_keys', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
