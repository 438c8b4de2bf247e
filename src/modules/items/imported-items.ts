import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';
import type { EventsService, PendingEvent } from '../events/events.service.js';
import type { TagsService } from '../tags/tags.service.js';
import type { ItemLoader } from './item-loader.js';
import { toItemView, type ItemView } from './item-view.js';
import { analyzeItemsInTransaction, insertItems } from './items-batch.repository.js';
import type { NewItemRow } from './items.repository.js';

/** Ids asked of the database at once (well under both dialects' parameter limits). */
const ID_CHUNK = 500;
/** Outbox rows written per insert statement. */
const EVENT_BATCH = 200;

/** An item as an import brings it: its row (its own id and times) and its tag names. */
export interface ImportedItem {
  row: NewItemRow;
  tags: readonly string[];
}

/** The items' side of an import, in the import's transaction (transfer/import.service.ts). */
export interface ImportedItems {
  /** Which of `ids` are already the user's items. */
  heldIds(trx: Executor, userId: string, ids: readonly string[]): Promise<Set<string>>;
  /**
   * Inserts the items in the order given (a parent before its subtasks), each stored, indexed for
   * search and announced (`item.created`) like a capture. Answers their views, in that order
   * (a brain dump's batch capture answers them).
   */
  insert(trx: Executor, userId: string, items: readonly ImportedItem[]): Promise<ItemView[]>;
  /**
   * Lets the database's planner see the items this transaction wrote (PostgreSQL; nothing on
   * SQLite, whose plans do not turn on them): call it as an import's rows grow (decision 0108).
   */
  refreshPlans(trx: Executor): Promise<void>;
}

export function createImportedItems(deps: { loader: ItemLoader; tags: TagsService; events: EventsService; dialect: DialectName }): ImportedItems {
  return {
    async refreshPlans(trx) {
      await analyzeItemsInTransaction(trx, deps.dialect);
    },
    async heldIds(trx, userId, ids) {
      const held = new Set<string>();
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        for (const row of await deps.loader.rows(trx, userId, ids.slice(i, i + ID_CHUNK))) held.add(row.id);
      }
      return held;
    },
    async insert(trx, userId, items) {
      await insertItems(
        trx,
        items.map((i) => i.row),
      );
      const names = await deps.tags.tagNewItems(
        trx,
        userId,
        items.map((i) => ({ itemId: i.row.id, names: i.tags })),
      );
      const views = items.map(({ row }) => toItemView(row, names.get(row.id) ?? []));
      for (let i = 0; i < views.length; i += EVENT_BATCH) {
        await deps.events.record(
          trx,
          userId,
          views.slice(i, i + EVENT_BATCH).map((item): PendingEvent => ({ name: 'item.created', item })),
        );
      }
      return views;
    },
  };
}
