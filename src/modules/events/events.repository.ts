import type { Executor } from '../../db/schema.js';

export interface OutboxRow {
  id: string;
  user_id: string;
  event: string;
  item_id: string;
  payload: string;
  created_at: string;
}

export async function insertOutboxEvents(db: Executor, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('outbox_events').values(rows).execute();
}

export async function listOutboxEvents(db: Executor, userId: string): Promise<OutboxRow[]> {
  return db
    .selectFrom('outbox_events')
    .select(['id', 'user_id', 'event', 'item_id', 'payload', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}
