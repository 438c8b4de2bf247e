import type { RawBuilder } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Db } from '../../db/schema.js';
import type { EventsService } from '../events/events.service.js';
import type { TagsService } from '../tags/tags.service.js';
import type { ItemStore } from './item-store.js';
import { toItemView, type ItemView } from './item-view.js';
import type { NewItemRow } from './items.repository.js';

/**
 * SQLite: write transactions run one at a time and share a commit (group commit), so the locked
 * path costs no round trips and is the only one. A new item takes its search key in its own insert
 * statement (one write, where the insert trigger's fallback would update the row a second time).
 */
export function createSqliteItemStore(deps: {
  db: Db;
  events: EventsService;
  tags: Pick<TagsService, 'setItemTags'>;
  /** The search index's key for a user's next item (search/search-index.sqlite.ts), handed in: search reads items, not the other way round. */
  searchIndex: { newItemKey(userId: unknown): RawBuilder<number> };
}): ItemStore {
  const { db } = deps;
  const insertWithKey = preparedQuery((db, p: NewItemRow) => db.insertInto('items').values({ ...p, search_key: deps.searchIndex.newItemKey(p.user_id) }));
  return {
    async insertNew(userId, stamp, tags) {
      let item!: ItemView;
      await db.transaction().execute(async (trx) => {
        // Stamped inside the transaction, which SQLite runs one at a time: the user's search keys,
        // which count inserts, then follow created_at.
        const row = stamp();
        await insertWithKey(trx, row);
        item = toItemView(row, tags.length === 0 ? [] : await deps.tags.setItemTags(trx, userId, row.id, tags));
        await deps.events.record(trx, userId, [{ name: 'item.created', item }]);
      });
      return item;
    },
    tryStateChange: () => Promise.resolve(undefined),
  };
}
