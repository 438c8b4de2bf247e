import type { DialectName } from '../../db/create-db.js';
import type { Executor, WebhooksTable } from '../../db/schema.js';

export type WebhookRow = WebhooksTable;

const WEBHOOK_COLUMNS = [
  'id',
  'user_id',
  'url',
  'events',
  'description',
  'sealed_secret',
  'created_at',
  'last_failure_status',
  'last_failure_reason',
  'last_failure_at',
  'kind',
  'target',
] as const;

export async function insertWebhook(db: Executor, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function countWebhooks(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'webhook')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findWebhooks(db: Executor, userId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .where('user_id', '=', userId)
    .where('kind', '=', 'webhook')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findWebhookById(db: Executor, userId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('user_id', '=', userId).where('id', '=', id).where('kind', '=', 'webhook').executeTakeFirst();
}

/** Webhooks only: notification channels share the table (decision 0041) and have their own routes. Deliveries go with it (foreign key cascade), so its pending ones are never attempted again. */
export async function deleteWebhookById(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('user_id', '=', userId).where('id', '=', id).where('kind', '=', 'webhook').executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Serialises a user's webhook creations on PostgreSQL, so two concurrent creates cannot both see
 * room under the limit. NO KEY UPDATE conflicts with itself but not with the key-share locks of
 * inserts that reference the user, so nothing else waits. SQLite transactions are serialised already.
 */
export async function lockUserRow(db: Executor, dialect: DialectName, userId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
}

export async function recordWebhookFailure(db: Executor, userId: string, id: string, failure: { status: number; reason: string; at: string }): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ last_failure_status: failure.status, last_failure_reason: failure.reason, last_failure_at: failure.at })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
}

export interface SubscribedWebhook {
  id: string;
  user_id: string;
  events: string;
  created_at: string;
}

/**
 * The webhooks that may receive these users' events. On PostgreSQL they are key-share locked until
 * the fan-out commits, so a concurrent delete waits for it (and then removes the new deliveries)
 * instead of making the fan-out's inserts fail their foreign key.
 */
export async function findWebhooksOfUsers(db: Executor, dialect: DialectName, userIds: readonly string[]): Promise<SubscribedWebhook[]> {
  if (userIds.length === 0) return [];
  const query = db
    .selectFrom('webhooks')
    .select(['id', 'user_id', 'events', 'created_at'])
    .where('user_id', 'in', [...userIds]);
  return (dialect === 'postgres' ? query.forKeyShare() : query).execute();
}
