import { createAttachmentsService } from '../modules/attachments/attachments.service.js';
import { createBlobCollector } from '../modules/attachments/blob-collector.js';
import { createBlobStore } from '../modules/attachments/blob-store.js';
import { createBulkService } from '../modules/bulk/bulk.service.js';
import { createSchedule } from '../modules/capture/schedule.js';
import { createEventsService } from '../modules/events/events.service.js';
import { createItemLoader } from '../modules/items/item-loader.js';
import { createAllDayZoneMove } from '../modules/items/all-day-zone.js';
import { createItemEdits } from '../modules/items/single-item-edits.js';
import { createItemWrites } from '../modules/items/write-changes.js';
import { createRoutingLearner } from '../modules/organizer/learning/routing-learner.js';
import { createProjectsService } from '../modules/projects/projects.service.js';
import { createRecurrenceService } from '../modules/recurrence/recurrence.service.js';
import { advanceRecurring } from '../modules/recurrence/recurring-completion.js';
import { createFilterItems } from '../modules/filters/filter-items.js';
import { createFiltersService } from '../modules/filters/filters.service.js';
import { createSearchService } from '../modules/search/search.service.js';
import { createTagsService } from '../modules/tags/tags.service.js';
import type { Basics } from './build-basics.js';
import type { ServiceInputs } from './inputs.js';

/**
 * The items kernel and the services that write through it: the outbox, tags, projects, recurrence,
 * the learner it reports moves to, edits, search and bulk. Items' write steps come first: deleting
 * a project moves its items with them.
 */
export function buildItems({ db, dialect, clock, newId, logger }: Basics, { ports, config }: ServiceInputs) {
  const base = { db, clock, newId };
  const events = createEventsService({ ...base, dialect });
  const tags = createTagsService({ ...base, dialect });
  const loader = createItemLoader(tags, dialect);
  const recurrence = createRecurrenceService({ db, newId });
  const writes = createItemWrites({
    clock,
    loader,
    events,
    advanceRecurring: (trx, userId, changes, at) => advanceRecurring(trx, userId, changes, at, recurrence),
  });
  const itemStore = ports.itemStore({ db, events, tags, now: writes.now });
  const projects = createProjectsService({ ...base, dialect, moveItems: writes.moveProjectItems });
  // The organizer's per-user routing model, taught by moves (edits, bulk) and filings (issue 37).
  const learner = createRoutingLearner({ db, dialect, clock, logger });
  const schedule = createSchedule({ recurrence });
  const edits = createItemEdits({ db, store: itemStore, loader, tags, projects, writes, learner, schedule });
  const search = createSearchService({ db, index: ports.searchIndex });
  const bulk = createBulkService({ db, loader, writes, projects, learner, edits, dialect, clock });
  const filters = createFiltersService({ ...base, dialect, events, filterItems: createFilterItems({ db, dialect, clock }) });
  // A user's timezone change moves their all-day items to the same dates (contract "All-day dates").
  const allDayZoneMove = createAllDayZoneMove({ dialect, writes });
  // Files on items (decision 0084): their list is part of the item, written through the item writes.
  const attachments = createAttachmentsService({
    db,
    clock,
    newId,
    loader,
    writes,
    store: createBlobStore(config.attachments.filesDir),
    maxBytes: config.attachments.maxBytes,
  });
  const attachmentCollector = createBlobCollector(attachments, logger);
  return {
    events,
    tags,
    loader,
    recurrence,
    itemStore,
    projects,
    learner,
    schedule,
    edits,
    search,
    bulk,
    filters,
    allDayZoneMove,
    attachments,
    attachmentCollector,
  };
}

export type ItemParts = ReturnType<typeof buildItems>;
