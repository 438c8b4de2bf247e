import { sql, type Kysely } from 'kysely';

/*
 * Webhooks and their deliveries. A delivery is one outbox event for one webhook; the worker claims
 * due deliveries with a lease (lease_owner/lease_until), so a crashed claim is taken over once its
 * lease has expired. Deleting a webhook deletes its deliveries (pending ones stop); pruning an
 * outbox event deletes its deliveries. Portable types only, like the core migration.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event names.
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // The secret's SHA-256 hex (the HMAC key), sealed with AES-256-GCM under SECRET_KEY.
    .addColumn('signing_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_failure_status', 'integer')
    .addColumn('last_failure_reason', 'text')
    .addColumn('last_failure_at', 'text')
    .addPrimaryKeyConstraint('webhooks_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('webhooks_user_created_idx').on('webhooks').columns(['user_id', 'created_at', 'id']).execute();

  // Null until the worker has fanned the event out into deliveries.
  await db.schema.alterTable('outbox_events').addColumn('dispatched_at', 'text').execute();
  await db.schema
    .createIndex('outbox_events_undispatched_idx')
    .on('outbox_events')
    .columns(['created_at', 'id'])
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // Every attempt ever started, and the attempts of the current set of three (redeliver resets it).
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('round_attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status', 'integer')
    .addColumn('last_failure_reason', 'text')
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_attempt_at', 'text')
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['user_id', 'id'])
    .addUniqueConstraint('webhook_deliveries_event_uq', ['user_id', 'webhook_id', 'event_id'])
    .addForeignKeyConstraint('webhook_deliveries_webhook_fk', ['user_id', 'webhook_id'], 'webhooks', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('webhook_deliveries_event_fk', ['user_id', 'event_id'], 'outbox_events', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('webhook_deliveries_log_idx').on('webhook_deliveries').columns(['user_id', 'webhook_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['user_id', 'event_id']).execute();
  // The worker's queue: only pending rows, so it stays small however long the log grows.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // A unique id lookup for claims and results, which know the delivery id only.
  await db.schema.createIndex('webhook_deliveries_id_idx').on('webhook_deliveries').column('id').unique().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropIndex('outbox_events_undispatched_idx').execute();
  await db.schema.alterTable('outbox_events').dropColumn('dispatched_at').execute();
  await db.schema.dropTable('webhooks').execute();
}
