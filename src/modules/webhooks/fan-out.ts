import type { DialectName } from '../../db/create-db.js';
import type { Db, WebhookDeliveriesTable } from '../../db/schema.js';
import type { IdGenerator } from '../../lib/ids.js';
import { findWebhooksOfUsers, insertDeliveries } from './deliveries.repository.js';
import { findEventsToFanOut, findLastPosition, findReadBound, lockDispatchPosition, saveDispatchPosition } from './fan-out.repository.js';

/**
 * Turns up to `limit` new outbox events of users with webhooks into one pending delivery per
 * subscribed webhook, and moves the fan-out position past them, in one transaction: a crash in
 * between loses nothing, and a second worker waits for the position instead of fanning the same
 * events out again. Events of users without webhooks are passed over without a write. A webhook
 * gets the events written since it was registered, not older ones. Answers how many events it took.
 */
export async function fanOutEvents(deps: { db: Db; dialect: DialectName; newId: IdGenerator }, now: string, limit: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const bound = await findReadBound(trx, deps.dialect);
    const from = await lockDispatchPosition(trx);
    const events = await findEventsToFanOut(trx, from, bound, limit);
    // A full batch ends at its last event; a short one read everything there is, so the position
    // moves past every readable event (those of users without webhooks included).
    const last = events.length === limit ? events[events.length - 1] : await findLastPosition(trx, bound);
    if (last && (last.txid > from.txid || (last.txid === from.txid && last.seq > from.seq))) {
      await saveDispatchPosition(trx, { txid: last.txid, seq: last.seq });
    }
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
