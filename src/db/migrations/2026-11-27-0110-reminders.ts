import { sql, type Kysely } from 'kysely';

/*
 * Reminders and notification channels (contract "Reminders", decision 0041).
 * - reminder_fires: one row per (item, remind_at) that came due, fired or missed; its unique key is
 *   what makes a reminder fire once across processes and restarts.
 * - Channels are rows of `webhooks` with a `kind` other than `webhook`, subscribed to
 *   item.reminder: the webhooks' fan-out, leases, attempts and delivery log carry them.
 *   `target` is the channel's public part (JSON); its secrets are sealed in `signing_key`.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('reminder_fires')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('remind_at', 'text', (c) => c.notNull())
    // fired | missed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reminder_fires_pk', ['user_id', 'id'])
    .addUniqueConstraint('reminder_fires_once_uq', ['user_id', 'item_id', 'remind_at'])
    .execute();
  await db.schema.createIndex('reminder_fires_log_idx').on('reminder_fires').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('reminder_fires_event_idx').on('reminder_fires').column('event_id').execute();
  // The scheduler's scan: only items with a reminder set.
  await db.schema.createIndex('items_remind_at_idx').on('items').columns(['remind_at']).where(sql.ref('remind_at'), 'is not', null).execute();

  await db.schema
    .alterTable('webhooks')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('webhook'))
    .execute();
  await db.schema.alterTable('webhooks').addColumn('target', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.deleteFrom('webhooks').where('kind', '!=', 'webhook').execute();
  await db.schema.alterTable('webhooks').dropColumn('target').execute();
  await db.schema.alterTable('webhooks').dropColumn('kind').execute();
  await db.schema.dropIndex('items_remind_at_idx').execute();
  await db.schema.dropTable('reminder_fires').execute();
}
