import { createCaldavService } from '../modules/caldav/caldav.service.js';
import { createFeedsService } from '../modules/feeds/feeds.service.js';
import { createSubtasksService } from '../modules/capture/add-subtask.js';
import { createBatchCaptureService } from '../modules/capture/capture-batch.js';
import { createCaptureService } from '../modules/capture/capture.service.js';
import { createImportedItems } from '../modules/items/imported-items.js';
import { createItemsService } from '../modules/items/items.service.js';
import type { LimitsService } from '../modules/limits/limits.service.js';
import { countedEngine } from '../modules/organizer/counted-engine.js';
import { createOrganizerEngine } from '../modules/organizer/engines.js';
import { createOpenAiSplitter } from '../modules/organizer/openai-split.js';
import { createOrganizerService } from '../modules/organizer/organizer.service.js';
import { createQuickAddService } from '../modules/quick-add/quick-add.service.js';
import { createProseSplitter } from '../modules/quick-add/split-prose.js';
import { createUndoService } from '../modules/undo/undo.service.js';
import type { Basics } from './build-basics.js';
import type { ItemParts } from './build-items.js';
import type { ServiceInputs } from './inputs.js';

/** A previewed prose split is stored as previewed if captured within this time (decision 0099). */
const PROSE_SPLIT_KEPT_MS = 30 * 60_000;
const PROSE_SPLITS_KEPT = 2000;

/** The organizer and everything that makes or reads items whole: quick add, items, capture, subtasks, undo. */
export function buildCapture(
  { db, dialect, clock, newId, logger, metrics }: Basics,
  { loader, tags, events, itemStore, projects, learner, schedule, edits, filters }: ItemParts,
  limits: LimitsService,
  { config, inject = {} }: ServiceInputs,
) {
  const engine = countedEngine(createOrganizerEngine(config.organizer, { logger, ...(inject.fetch ? { fetch: inject.fetch } : {}) }), metrics.organizerRuns);
  const organizer = createOrganizerService({ db, clock, engine, limits, projects, loader, patchItem: edits.patch, learner, events });
  const imports = createImportedItems({ loader, tags, events, dialect });
  // With the openai engine, `organize` lets the model split prose into items (decision 0099).
  const openai = config.organizer.engine === 'openai' ? config.organizer.openai : undefined;
  const prose = openai
    ? createProseSplitter({
        ask: createOpenAiSplitter({ ...openai, timeoutMs: config.organizer.timeoutMs, fetch: inject.fetch ?? globalThis.fetch, logger }),
        consumeAiRun: (user) => limits.consumeAiRun(user),
        clock,
        keepMs: PROSE_SPLIT_KEPT_MS,
        keepMax: PROSE_SPLITS_KEPT,
      })
    : null;
  const quickAdd = createQuickAddService({ db, clock, prose });
  const items = createItemsService({ db, loader, projects, edits, imports });
  const capture = createCaptureService({ db, clock, newId, store: itemStore, loader, projects, organizer, quickAdd, schedule });
  const subtasks = createSubtasksService({ items, capture });
  const undo = createUndoService({ db, clock, newId, items });
  // A brain dump: one text split into many items, stored at once (decision 0079).
  const batchCapture = createBatchCaptureService({ db, clock, newId, projects, quickAdd, schedule, imports });
  // Calendar apps over CalDAV: their writes go through capture and the items service (decision 0080).
  const caldav = createCaldavService({ db, clock, items, loader, capture, projects, events, filters });
  // Subscribable .ics feeds; their todos are the CalDAV server's objects (decision 0083).
  const feeds = createFeedsService({ db, dialect, clock, newId, publicUrl: config.publicUrl, items, projects, filters, objects: caldav.objects });
  return { organizer, quickAdd, items, capture, subtasks, undo, batchCapture, caldav, feeds };
}

export type CaptureParts = ReturnType<typeof buildCapture>;
