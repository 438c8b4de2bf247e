import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ImportedItem, ImportedItems } from '../items/imported-items.js';
import type { ItemSchedule } from '../items/item-ports.js';
import { freshState, toggleState } from '../items/item-state.js';
import type { ItemView } from '../items/item-view.js';
import { newItemRow } from '../items/new-item.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { QuickAddService } from '../quick-add/quick-add.service.js';
import { normalizeTagNames } from '../tags/tags.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';

export interface BatchCaptureInput {
  text: string;
  /** Quick add on each item (default true); false stores each line as typed. */
  parse?: boolean;
  /** The model may split prose, as the preview with organize did (decision 0099); the organizer does not run on each item. */
  organize?: boolean;
  /** For the items that name no project. */
  project_id?: string;
  /** Added to each item's own tags. */
  tags?: string[];
}

/** A brain dump: one text, many items, exactly as POST /parse with split previews them. */
export interface BatchCaptureService {
  captureBatch(user: AuthUser, input: BatchCaptureInput): Promise<ItemView[]>;
}

export interface BatchCaptureDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  projects: Pick<ProjectsService, 'requireProject' | 'inboxId'>;
  quickAdd: Pick<QuickAddService, 'parseSplit'>;
  schedule: ItemSchedule;
  /** The items kernel's ordered insert (each item stored, indexed and announced as a capture is), in our transaction. */
  imports: Pick<ImportedItems, 'insert'>;
}

/**
 * The capture steps for many items at once: read (the split and quick add, the preview's own code),
 * resolve the projects, schedule, store: every item, its tags and its item.created in one
 * transaction, so a batch is all stored or none of it. The organizer does not decide a batch's items;
 * with `organize` its model may only split prose, as the preview did.
 */
export function createBatchCaptureService(deps: BatchCaptureDeps): BatchCaptureService {
  const { db } = deps;
  return {
    async captureBatch(user, input) {
      // Read.
      const split = await deps.quickAdd.parseSplit(user, input.text, { quickAdd: input.parse ?? true, organize: input.organize ?? false });
      const extraTags = input.tags ?? [];

      // Resolve the projects: a heading's or the item's own, else the request's, else the Inbox.
      const fallback = input.project_id ? (await deps.projects.requireProject(db, user.id, input.project_id)).id : await deps.projects.inboxId(user.id);

      const now = toTimestamp(deps.clock.now());
      const ids = split.map(() => deps.newId());
      const items: ImportedItem[] = [];
      for (const [i, read] of split.entries()) {
        // Schedule.
        const recurrence = read.recurrence ? deps.schedule.checkRecurrence(read.recurrence) : null;
        // The default reminder is for timed items only; an all-day one reminds only when asked (contract "All-day dates").
        const remindAt = read.due_at === null || read.all_day ? null : await deps.schedule.defaultRemindAt(db, user.id, read.due_at);
        const fresh = freshState('todo');
        items.push({
          row: newItemRow({
            id: ids[i]!,
            user_id: user.id,
            project_id: read.project_id ?? fallback,
            parent_id: read.parent_index === null ? null : ids[read.parent_index]!,
            type: 'todo',
            title: read.title,
            content_md: read.content_md,
            due_at: read.due_at,
            all_day: read.all_day,
            recurrence,
            remind_at: remindAt,
            captured_by_key: user.keyId,
            created_at: now,
            // `[x]` lines arrive done.
            state: read.is_completed ? toggleState(fresh, true) : fresh,
          }),
          tags: normalizeTagNames([...read.tags, ...extraTags]),
        });
      }

      // Store: all or nothing.
      return db.transaction().execute((trx) => deps.imports.insert(trx, user.id, items));
    },
  };
}
