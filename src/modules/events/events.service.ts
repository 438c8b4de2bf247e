import type { Executor } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ItemView } from '../items/item-view.js';
import { insertOutboxEvents, listOutboxEvents, type OutboxRow } from './events.repository.js';

export type ItemEventName =
  | 'item.created'
  | 'item.updated'
  | 'item.completed'
  | 'item.uncompleted'
  | 'item.archived'
  | 'item.deleted';

export const ITEM_EVENT_NAMES: readonly ItemEventName[] = [
  'item.created',
  'item.updated',
  'item.completed',
  'item.uncompleted',
  'item.archived',
  'item.deleted',
];

export interface PendingEvent {
  name: ItemEventName;
  item: ItemView;
}

export interface DeliveryBody {
  id: string;
  event: ItemEventName;
  created_at: string;
  data: { item: ItemView };
}

export interface EventsService {
  /** Must be called with the transaction of the change itself: that is what makes events crash-safe. */
  record(trx: Executor, userId: string, events: PendingEvent[]): Promise<void>;
  listForUser(db: Executor, userId: string): Promise<DeliveryBody[]>;
}

export function createEventsService(deps: { clock: Clock; newId: IdGenerator }): EventsService {
  return {
    async record(trx, userId, events) {
      const createdAt = toTimestamp(deps.clock.now());
      const rows: OutboxRow[] = events.map(({ name, item }) => {
        const id = deps.newId();
        const body: DeliveryBody = { id, event: name, created_at: createdAt, data: { item } };
        return { id, user_id: userId, event: name, item_id: item.id, payload: JSON.stringify(body), created_at: createdAt };
      });
      await insertOutboxEvents(trx, rows);
    },
    async listForUser(db, userId) {
      const rows = await listOutboxEvents(db, userId);
      return rows.map((row) => JSON.parse(row.payload) as DeliveryBody);
    },
  };
}
