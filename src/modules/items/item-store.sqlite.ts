import type { RawBuilder } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Db } from '../../db/schema.js';
import { syncUnitsOf } from '../../db/sqlite/sync-units.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { EventsService } from '../events/events.service.js';
import type { TagsService } from '../tags/tags.service.js';
import { stateChange } from './item-change.js';
import type { ItemStore } from './item-store.js';
import { parseTagNames, toItemView, type ItemRow, type ItemView } from './item-view.js';
import { lockedItemQuery, updatedItemQuery, type NewItemRow } from './items.repository.js';

/**
 * SQLite: write transactions run one at a time and share a commit (group commit), so the locked
 * path costs no round trips and is the only one. A new item takes its search key in its own insert
 * statement (one write, where the insert trigger's fallback would update the row a second time).
 * A state change runs its read, write and events in one synchronous unit (db/sqlite/sync-units.ts):
 * the same statements as the locked path, without Kysely's transaction and a promise per statement.
 */
export function createSqliteItemStore(deps: {
  db: Db;
  events: EventsService;
  tags: Pick<TagsService, 'setItemTags'>;
  /** The search index's key for a user's next item (search/search-index.sqlite.ts), handed in: search reads items, not the other way round. */
  searchIndex: { newItemKey(userId: unknown): RawBuilder<number> };
  now: () => string;
}): ItemStore {
  const { db, events } = deps;
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
        await events.record(trx, userId, [{ name: 'item.created', item }]);
      });
      return item;
    },

    async tryStateChange(userId, id, next, precondition) {
      if (!isUuid(id)) throw notFound('item');
      const unit = syncUnitsOf(db.getExecutor().adapter);
      // Completing a recurring item records the completion and moves the item: the locked path does that.
      const done = unit?.((run): ItemView | undefined => {
        const [found] = run(lockedItemQuery(db, userId, id));
        if (!found) throw notFound('item');
        const { tag_names, ...row } = found;
        const tags = parseTagNames(tag_names);
        if (precondition) precondition(toItemView(row, tags));
        const at = deps.now();
        const change = stateChange(row, next, at);
        if (!change) return toItemView(row, tags);
        if (row.recurrence_rule !== null && change.events.includes('item.completed')) return undefined;
        const [written] = run<ItemRow>(updatedItemQuery(db, userId, row.id, { ...change.patch, updated_at: at }));
        const item = toItemView(written!, tags);
        run(
          events.recordQuery(
            db,
            userId,
            change.events.map((name) => ({ name, item })),
          ),
        );
        return item;
      });
      return done;
    },
  };
}
