import type { Executor, WebhooksTable } from '../../db/schema.js';
import type { ChannelKind } from './transports/target-transport.js';

/*
 * Notification channels are rows of `webhooks` whose kind is not `webhook` (decisions 0041, 0066):
 * the deliveries' fan-out, leases, attempts and log carry them. Every query here keeps to them.
 */

export type { ChannelKind };
export type ChannelRow = Pick<WebhooksTable, 'id' | 'user_id' | 'url' | 'target' | 'sealed_secret' | 'created_at'> & { kind: ChannelKind };

const COLUMNS = ['id', 'user_id', 'kind', 'url', 'target', 'sealed_secret', 'created_at'] as const;

export async function insertChannel(db: Executor, row: ChannelRow): Promise<void> {
  await db
    .insertInto('webhooks')
    .values({
      ...row,
      events: JSON.stringify(['item.reminder']),
      description: null,
      last_failure_status: null,
      last_failure_reason: null,
      last_failure_at: null,
    })
    .execute();
}

export async function countChannels(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '!=', 'webhook')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findChannels(db: Executor, userId: string): Promise<ChannelRow[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('kind', '!=', 'webhook')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows as ChannelRow[];
}

export async function findChannelById(db: Executor, userId: string, id: string): Promise<ChannelRow | undefined> {
  const row = await db
    .selectFrom('webhooks')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('kind', '!=', 'webhook')
    .executeTakeFirst();
  return row as ChannelRow | undefined;
}

/** Its deliveries go with it (foreign key cascade). */
export async function deleteChannel(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('user_id', '=', userId).where('id', '=', id).where('kind', '!=', 'webhook').executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What a notification shows besides the item: the user's zone and the item's project name. */
export async function findNotificationContext(db: Executor, userId: string, projectId: string | null): Promise<{ timezone: string; project: string | null }> {
  const user = await db.selectFrom('users').select('timezone').where('id', '=', userId).executeTakeFirst();
  const project =
    projectId === null
      ? undefined
      : await db.selectFrom('projects').select('name').where('user_id', '=', userId).where('id', '=', projectId).executeTakeFirst();
  return { timezone: user?.timezone ?? 'UTC', project: project?.name ?? null };
}
