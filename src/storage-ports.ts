import type SQLite from 'better-sqlite3';
import { dialectOf, type DialectName } from './db/create-db.js';
import type { Db } from './db/schema.js';
import type { EventsService } from './modules/events/events.service.js';
import { createPostgresItemStore } from './modules/items/item-store.postgres.js';
import { createSqliteItemStore } from './modules/items/item-store.sqlite.js';
import type { ItemStore } from './modules/items/item-store.js';
import { postgresCommitWakeups } from './modules/live/commit-wakeups.postgres.js';
import { sqliteCommitWakeups } from './modules/live/commit-wakeups.sqlite.js';
import type { WakeupSource } from './modules/live/wakeups.js';
import { createPostgresSearchIndex } from './modules/search/search-index.postgres.js';
import { applySearchQueue, createSqliteSearchIndex } from './modules/search/search-index.sqlite.js';
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
    return { searchIndex, itemStore: (deps) => createSqliteItemStore({ ...deps, searchIndex }) };
  }
  return { searchIndex: createPostgresSearchIndex(), itemStore: createPostgresItemStore };
}

/**
 * The ports the database itself needs as it opens, chosen here too (decisions/0067): the live
 * streams' commit wake-ups (`CommitWakeups`), and on SQLite what the features run on the writer
 * just before each commit (the search index's queue, the wake-ups' hand-over).
 */
export interface DatabasePorts {
  wakeups: WakeupSource;
  sqliteBeforeCommit?: (writer: SQLite.Database) => () => void;
}

export function databasePortsFor(url: string): DatabasePorts {
  if (dialectOf(url) === 'postgres') return { wakeups: postgresCommitWakeups({ url }).source };
  const live = sqliteCommitWakeups();
  return {
    wakeups: live.source,
    sqliteBeforeCommit(writer) {
      const search = applySearchQueue(writer);
      const wakeups = live.beforeCommit(writer);
      return () => {
        search();
        wakeups();
      };
    },
  };
}
