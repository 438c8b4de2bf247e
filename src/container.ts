import type { DbHandle } from './db/create-db.js';
import type { Db } from './db/schema.js';
import { systemClock, type Clock } from './lib/clock.js';
import { newId as defaultNewId, type IdGenerator } from './lib/ids.js';
import { createEventsService, type EventsService } from './modules/events/events.service.js';
import { createItemChangesService, type ItemChangesService } from './modules/items/item-changes.service.js';
import { createItemLoader } from './modules/items/item-loader.js';
import { createItemsService, type ItemsService } from './modules/items/items.service.js';
import { createKeysService, type KeysService } from './modules/keys/keys.service.js';
import { createProjectsService, type ProjectsService } from './modules/projects/projects.service.js';
import { createTagsService, type TagsService } from './modules/tags/tags.service.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';

export interface Services {
  db: Db;
  dialect: DbHandle['dialect'];
  clock: Clock;
  users: UsersService;
  keys: KeysService;
  projects: ProjectsService;
  tags: TagsService;
  items: ItemsService;
  itemChanges: ItemChangesService;
  events: EventsService;
}

export interface ContainerOptions {
  clock?: Clock;
  newId?: IdGenerator;
}

/** Wires every service once. No HTTP here: the server, the CLI and tests all build from this. */
export function createServices(handle: DbHandle, options: ContainerOptions = {}): Services {
  const { db, dialect } = handle;
  const clock = options.clock ?? systemClock;
  const newId = options.newId ?? defaultNewId;
  const base = { db, clock, newId };

  const events = createEventsService(base);
  const tags = createTagsService(base);
  const loader = createItemLoader(tags);
  // Deleting a project moves its items, which is item logic; the late binding breaks the cycle.
  let itemChanges: ItemChangesService | undefined;
  const projects = createProjectsService({
    ...base,
    moveItems: (trx, userId, from, to) => {
      if (!itemChanges) throw new Error('item changes service is not wired');
      return itemChanges.moveProjectItems(trx, userId, from, to);
    },
  });
  itemChanges = createItemChangesService({ db, clock, loader, tags, projects, events });
  const items = createItemsService({ ...base, loader, projects, events });
  const users = createUsersService({ ...base, projects });
  const keys = createKeysService(base);

  return { db, dialect, clock, users, keys, projects, tags, items, itemChanges, events };
}
