import type { DialectName } from './db/create-db.js';
import type { Db } from './db/schema.js';
import type { EventsService } from './modules/events/events.service.js';
import { createPostgresItemStore } from './modules/items/item-store.postgres.js';
import { createSqliteItemStore } from './modules/items/item-store.sqlite.js';
import type { ItemStore } from './modules/items/item-store.js';
import { createPostgresSearchIndex } from './modules/search/search-index.postgres.js';
import { createSqliteSearchIndex } from './modules/search/search-index.sqlite.js';
import type { SearchIndex } from './modules/search/search-index.js';
import type { TagsService } from './modules/tags/tags.service.js';

/**
 * Each feature's dialect-specific fast paths, chosen here once for the database in use: the only
 * place that asks which database it is (docs/decisions/0036-storage-ports.md).
 */
export interface StoragePorts {
  searchIndex: SearchIndex;
  /** Built once the events service it writes through exists. */
  itemStore(deps: { db: Db; events: EventsService; tags: Pick<TagsService, 'setItemTags'>; now: () => string }): ItemStore;
}

export function storagePortsFor(dialect: DialectName): StoragePorts {
  if (dialect === 'sqlite') {
    const searchIndex = createSqliteSearchIndex();
    return { searchIndex, itemStore: (deps) => createSqliteItemStore({ db: deps.db, events: deps.events, tags: deps.tags, searchIndex }) };
  }
  return { searchIndex: createPostgresSearchIndex(), itemStore: createPostgresItemStore };
}
