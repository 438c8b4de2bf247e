import type { DialectName } from '../../db/create-db.js';
import type { Db, WebhookDeliveriesTable } from '../../db/schema.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { EventsService } from '../events/events.service.js';
import { insertDeliveries } from './delivery-queue.repository.js';
import { findWebhooksOfUsers } from './webhooks.repository.js';

export interface FanOutDeps {
  db: Db;
  dialect: DialectName;
  newId: IdGenerator;
  events: EventsService;
}

/**
 * Turns up to `limit` new outbox events into one pending delivery per subscribed webhook, in one
 * transaction: the event is marked dispatched exactly when its deliveries exist, so a crash in
 * between loses nothing and a second worker never fans the same event out again. A webhook gets
 * the events written since it was registered, not older ones. Answers how many events it took.
 */
export async function fanOutEvents(deps: FanOutDeps, now: string, limit: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const events = await deps.events.takeUndispatched(trx, now, limit);
    if (events.length === 0) return 0;
    const webhooks = await findWebhooksOfUsers(trx, deps.dialect, [...new Set(events.map((e) => e.user_id))]);
    const subscriptions = webhooks.map((w) => ({ ...w, names: new Set(JSON.parse(w.events) as string[]) }));
    const rows: WebhookDeliveriesTable[] = [];
    for (const event of events) {
      for (const hook of subscriptions) {
        if (hook.user_id !== event.user_id || !hook.names.has(event.event) || hook.created_at > event.created_at) continue;
        rows.push({
          id: deps.newId(),
          user_id: event.user_id,
          webhook_id: hook.id,
          event_id: event.id,
          status: 'pending',
          attempts: 0,
          round_attempts: 0,
          last_status: null,
          last_failure_reason: null,
          next_attempt_at: now,
          lease_owner: null,
          lease_until: null,
          created_at: now,
          last_attempt_at: null,
        });
      }
    }
    await insertDeliveries(trx, rows);
    return events.length;
  });
}
