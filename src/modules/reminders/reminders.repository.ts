import { sql } from 'kysely';
import type { Executor, ReminderFiresTable } from '../../db/schema.js';

/** A reminder that has come due: the item and the remind_at value it is for. */
export interface DueReminder {
  id: string;
  user_id: string;
  remind_at: string;
}

/**
 * Reminders due at `now` that have not fired: open items (not done, not archived; deleted ones are
 * gone) whose remind_at lies in [since, now] and has no reminder_fires row yet. Oldest first.
 */
export async function findDueReminders(db: Executor, since: string, now: string, limit: number): Promise<DueReminder[]> {
  return db
    .selectFrom('items')
    .select(['items.id', 'items.user_id', 'items.remind_at as remind_at'])
    .where('items.remind_at', 'is not', null)
    .where('items.remind_at', '>=', since)
    .where('items.remind_at', '<=', now)
    .where('items.status', 'not in', ['done', 'archived'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reminder_fires as f')
            .select('f.id')
            .whereRef('f.user_id', '=', 'items.user_id')
            .whereRef('f.item_id', '=', 'items.id')
            .whereRef('f.remind_at', '=', 'items.remind_at'),
        ),
      ),
    )
    .orderBy('items.remind_at')
    .orderBy('items.id')
    .limit(limit)
    .$narrowType<{ remind_at: string }>()
    .execute();
}

/**
 * Records that a reminder came due, once: the unique (user, item, remind_at) key makes a second
 * process's insert a no-op, and the insert happens only while the item still has that remind_at
 * and is open (a reminder cleared, moved or completed meanwhile does not fire). Answers whether
 * this call recorded it.
 */
export async function insertFireOnce(db: Executor, row: Omit<ReminderFiresTable, 'event_id'>): Promise<boolean> {
  const result = await db
    .insertInto('reminder_fires')
    .columns(['id', 'user_id', 'item_id', 'remind_at', 'status', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('items')
        .select([
          sql.lit(row.id).as('id'),
          sql.lit(row.user_id).as('user_id'),
          'items.id as item_id',
          'items.remind_at as remind_at',
          sql.lit(row.status).as('status'),
          sql.lit(row.created_at).as('created_at'),
        ])
        .where('items.user_id', '=', row.user_id)
        .where('items.id', '=', row.item_id)
        .where('items.remind_at', '=', row.remind_at)
        .where('items.status', 'not in', ['done', 'archived']),
    )
    .onConflict((oc) => oc.columns(['user_id', 'item_id', 'remind_at']).doNothing())
    .returning('id')
    .execute();
  return result.length > 0;
}

export async function setFireEvent(db: Executor, userId: string, id: string, eventId: string): Promise<void> {
  await db.updateTable('reminder_fires').set({ event_id: eventId }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export interface ReminderLogRow {
  id: string;
  item_id: string;
  channel_id: string | null;
  kind: 'webpush' | 'ntfy' | 'email' | null;
  remind_at: string;
  status: 'pending' | 'succeeded' | 'failed' | 'missed';
  attempts: number;
  last_status: number | null;
  created_at: string;
}

/**
 * The reminders log, newest first: each channel delivery of a fired reminder (the webhooks'
 * delivery rows, decision 0041), and each missed reminder (no channel: it was never sent).
 */
export async function findReminderLogPage(
  db: Executor,
  userId: string,
  after: { key: string; id: string } | undefined,
  limit: number,
): Promise<ReminderLogRow[]> {
  const deliveries = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', (j) => j.onRef('w.user_id', '=', 'd.user_id').onRef('w.id', '=', 'd.webhook_id'))
    .innerJoin('reminder_fires as f', (j) => j.onRef('f.user_id', '=', 'd.user_id').onRef('f.event_id', '=', 'd.event_id'))
    .select([
      'd.id as id',
      'f.item_id as item_id',
      sql<string | null>`d.webhook_id`.as('channel_id'),
      sql<ReminderLogRow['kind']>`w.kind`.as('kind'),
      'f.remind_at as remind_at',
      sql<ReminderLogRow['status']>`d.status`.as('status'),
      'd.attempts as attempts',
      'd.last_status as last_status',
      'd.created_at as created_at',
    ])
    .where('d.user_id', '=', userId)
    .where('w.kind', '!=', 'webhook');
  const missed = db
    .selectFrom('reminder_fires as m')
    .select([
      'm.id as id',
      'm.item_id as item_id',
      sql<string | null>`cast(null as text)`.as('channel_id'),
      sql<ReminderLogRow['kind']>`cast(null as text)`.as('kind'),
      'm.remind_at as remind_at',
      sql<ReminderLogRow['status']>`'missed'`.as('status'),
      sql<number>`0`.as('attempts'),
      sql<number | null>`cast(null as integer)`.as('last_status'),
      'm.created_at as created_at',
    ])
    .where('m.user_id', '=', userId)
    .where('m.status', '=', 'missed');
  let query = db.selectFrom(deliveries.unionAll(missed).as('log')).selectAll();
  if (after)
    query = query.where((eb) => eb.or([eb('log.created_at', '<', after.key), eb.and([eb('log.created_at', '=', after.key), eb('log.id', '<', after.id)])]));
  return query
    .orderBy('log.created_at', 'desc')
    .orderBy('log.id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** Deletes fires older than the log keeps whose remind_at is also past the scheduler's look-back (so none fires again). */
export async function pruneFires(db: Executor, createdBefore: string, remindBefore: string): Promise<number> {
  const result = await db.deleteFrom('reminder_fires').where('created_at', '<', createdBefore).where('remind_at', '<', remindBefore).executeTakeFirst();
  return Number(result.numDeletedRows);
}
