import type { Db, Executor } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { normalizeTagNames, tagKey, type TagsService } from '../tags/tags.service.js';
import type { ItemPrecondition } from './item-etag.js';
import { toggleNext, type NextState } from './item-change.js';
import type { ItemLoader } from './item-loader.js';
import type { ItemSchedule, MoveLearner, ProjectCheck } from './item-ports.js';
import { archiveState, stateEventNames, unarchiveState } from './item-state.js';
import { toItemView, type ItemView } from './item-view.js';
import type { ItemStore } from './item-store.js';
import { findAncestorIds, type ItemRowWithTags } from './items.repository.js';
import { patchColumns, type PatchInput } from './patch-columns.js';
import type { ItemWrites } from './write-changes.js';

/** The single-item changes of the API, each in its own transaction on the locked row. */
export interface ItemEdits {
  // `precondition` (If-Match) is checked against the locked row inside the change's transaction.
  patch(userId: string, id: string, input: PatchInput, precondition?: ItemPrecondition): Promise<ItemView>;
  toggle(userId: string, id: string, precondition?: ItemPrecondition): Promise<ItemView>;
  archive(userId: string, id: string, precondition?: ItemPrecondition): Promise<ItemView>;
  unarchive(userId: string, id: string, precondition?: ItemPrecondition): Promise<ItemView>;
  remove(userId: string, id: string, precondition?: ItemPrecondition): Promise<void>;
}

export function createItemEdits(deps: {
  db: Db;
  store: ItemStore;
  loader: ItemLoader;
  tags: TagsService;
  projects: ProjectCheck;
  writes: ItemWrites;
  learner: MoveLearner;
  schedule: ItemSchedule;
}): ItemEdits {
  const { db, loader, writes } = deps;

  /** A new parent must be the user's item and must not sit below (or be) the item itself. */
  async function checkParent(trx: Executor, userId: string, itemId: string, parentId: string): Promise<void> {
    const ancestors = await findAncestorIds(trx, userId, parentId);
    if (ancestors.length === 0) throw badRequest('parent_id must be one of your items', 'parent_id');
    if (ancestors.includes(itemId)) throw badRequest('parent_id cannot be the item itself or one of its subtasks', 'parent_id');
  }

  /** The row as a single-item route answers it after a step: as written when the step changed it. */
  const viewAfter = (row: ItemRowWithTags, changed: Map<string, ItemView>): ItemView => changed.get(row.id) ?? toItemView(row, row.tags);

  const onRow = <T>(userId: string, id: string, work: (trx: Executor, row: ItemRowWithTags) => Promise<T>, precondition?: ItemPrecondition): Promise<T> =>
    db.transaction().execute(async (trx) => {
      const row = await loader.requireLockedRow(trx, userId, id);
      if (precondition) precondition(toItemView(row, row.tags));
      return work(trx, row);
    });

  /** A state route (toggle, archive, unarchive): the store's fast path where it has one, else on the locked row. */
  async function onState(userId: string, id: string, next: NextState, precondition?: ItemPrecondition): Promise<ItemView> {
    const changed = await deps.store.tryStateChange(userId, id, next, precondition);
    if (changed) return changed;
    return onRow(userId, id, async (trx, row) => viewAfter(row, await writes.applyStates(trx, userId, [row], next)), precondition);
  }

  return {
    patch: (userId, id, input, precondition) =>
      onRow(
        userId,
        id,
        async (trx, row) => {
          const at = writes.now();
          // An all-day due is placed in the user's zone: read it only when the change may need it.
          const zone = input.due_at !== undefined || input.all_day !== undefined ? await deps.schedule.timezone(trx, userId) : 'UTC';
          const { patch, before, after } = patchColumns(row, input, at, deps.schedule.checkRecurrence, zone);
          const allDay = patch.all_day !== undefined ? patch.all_day === 1 : Boolean(row.all_day);
          // A new timed due date without an explicit remind_at gets the user's default reminder, when they have one;
          // an all-day item reminds only at an explicit remind_at.
          if (typeof patch.due_at === 'string' && !allDay && input.remind_at === undefined) {
            const remind = await deps.schedule.defaultRemindAt(trx, userId, patch.due_at);
            if (remind !== null && remind !== row.remind_at) patch.remind_at = remind;
          }
          if (input.project_id !== undefined && input.project_id !== row.project_id) {
            patch.project_id = (await deps.projects.requireProject(trx, userId, input.project_id)).id;
            // A move by the user teaches the organizer where such items go (issue 37), in this transaction.
            await deps.learner.learnMoves(trx, userId, [
              { id: row.id, title: patch.title !== undefined ? patch.title : row.title, from: row.project_id, to: patch.project_id },
            ]);
          }
          if (input.parent_id !== undefined && input.parent_id !== row.parent_id) {
            if (input.parent_id !== null) await checkParent(trx, userId, row.id, input.parent_id);
            patch.parent_id = input.parent_id;
          }
          let tagsChanged = false;
          if (input.tags !== undefined) {
            const wanted = normalizeTagNames(input.tags);
            const current = (await deps.tags.namesForItems(trx, userId, [row.id])).get(row.id) ?? [];
            const key = (names: readonly string[]) => names.map(tagKey).sort().join('\n');
            if (key(current) !== key(wanted)) {
              await deps.tags.setItemTags(trx, userId, row.id, wanted);
              tagsChanged = true;
            }
          }
          if (!tagsChanged && Object.keys(patch).length === 0) return toItemView(row, row.tags);
          const events = ['item.updated' as const, ...stateEventNames(before, after)];
          // Changed tags are read back as stored (an existing tag keeps its spelling).
          const change = tagsChanged ? { row, patch, events } : { row, patch, events, tags: row.tags };
          return viewAfter(row, await writes.commit(trx, userId, [change], at));
        },
        precondition,
      ),

    toggle: (userId, id, precondition) => onState(userId, id, toggleNext, precondition),
    archive: (userId, id, precondition) => onState(userId, id, archiveState, precondition),
    unarchive: (userId, id, precondition) => onState(userId, id, (s) => unarchiveState(s), precondition),
    remove: async (userId, id, precondition) => {
      await onRow(userId, id, (trx, row) => writes.removeWithSubtasks(trx, userId, [row]), precondition);
    },
  };
}
