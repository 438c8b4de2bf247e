import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { CaptureService } from '../capture/capture.service.js';
import type { EventsService } from '../events/events.service.js';
import type { FiltersService } from '../filters/filters.service.js';
import type { ItemLoader } from '../items/item-loader.js';
import type { ItemsService } from '../items/items.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { createCollections, type Collections } from './collections.js';
import { createObjectStore, type ObjectStore } from './object-store.js';
import { createObjectWrites, type ObjectWrites } from './object-writes.js';
import { createSyncCollection, type SyncCollection } from './sync-collection.js';

/** The CalDAV server's parts, built once: collections, objects read and written, sync. */
export interface CaldavService {
  collections: Collections;
  objects: ObjectStore;
  writes: ObjectWrites;
  sync: SyncCollection;
}

export function createCaldavService(deps: {
  db: Db;
  clock: Clock;
  items: ItemsService;
  /** Many items by id in two queries (a sync's changed items); the items service reads one at a time. */
  loader: Pick<ItemLoader, 'rows' | 'views'>;
  capture: CaptureService;
  projects: ProjectsService;
  events: EventsService;
  filters: Pick<FiltersService, 'list' | 'query'>;
}): CaldavService {
  const { db } = deps;
  const objects = createObjectStore({ db, items: deps.items, loader: deps.loader, filters: deps.filters });
  return {
    collections: createCollections({ db, projects: deps.projects, filters: deps.filters }),
    objects,
    writes: createObjectWrites({
      db,
      store: objects,
      items: deps.items,
      capture: deps.capture,
      projects: deps.projects,
      now: () => toTimestamp(deps.clock.now()),
    }),
    sync: createSyncCollection({ db, events: deps.events, store: objects }),
  };
}
