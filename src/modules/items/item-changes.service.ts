import type { Db, Executor, ItemStatus, ItemType } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseTimestamp, toTimestamp } from '../../lib/timestamps.js';
import type { EventsService, ItemEventName, PendingEvent } from '../events/events.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { normalizeTagNames, tagKey, type TagsService } from '../tags/tags.service.js';
import type { ItemLoader } from './item-loader.js';
import { archiveState, setStatusState, toggleState, unarchiveState, type ItemState } from './item-state.js';
import type { ItemRow, ItemView } from './item-view.js';
import {
  deleteItemsByIds,
  findAncestorIds,
  findItemIdsInProject,
  findItemsByIds,
  findSubtreeIds,
  moveItemsToProject,
  updateItem,
  type ItemPatch,
} from './items.repository.js';

export interface PatchInput {
  title?: string | null;
  content_md?: string | null;
  due_at?: string | null;
  project_id?: string;
  status?: ItemStatus;
  parent_id?: string | null;
  tags?: string[];
  type?: ItemType;
}

export interface ItemChangesService {
  patch(userId: string, id: string, input: PatchInput): Promise<ItemView>;
  toggle(userId: string, id: string): Promise<ItemView>;
  archive(userId: string, id: string): Promise<ItemView>;
  unarchive(userId: string, id: string): Promise<ItemView>;
  remove(userId: string, id: string): Promise<void>;
  /** Per-row steps inside a caller's transaction, shared with bulk operations. */
  applyState(trx: Executor, userId: string, row: ItemRow, next: (state: ItemState, now: string) => ItemState): Promise<ItemView>;
  /** Deletes the item and its subtasks at any depth; answers every deleted id. */
  removeWithSubtasks(trx: Executor, userId: string, row: ItemRow): Promise<string[]>;
  /** Moves one item (not its subtasks) to a project the caller has checked, like PATCH project_id. */
  moveToProject(trx: Executor, userId: string, row: ItemRow, projectId: string): Promise<ItemView>;
  moveProjectItems(trx: Executor, userId: string, fromProjectId: string, toProjectId: string): Promise<void>;
}

const stateOf = (row: ItemRow): ItemState => ({
  is_completed: Boolean(row.is_completed),
  status: row.status,
  status_before_archive: row.status_before_archive,
  archived_at: row.archived_at,
});

/** Events of a change, by the contract's table: what changed decides what is announced. */
function stateEvents(before: ItemState, after: ItemState, announceUpdate: boolean): ItemEventName[] {
  const events: ItemEventName[] = [];
  if (announceUpdate) events.push('item.updated');
  if (before.is_completed !== after.is_completed) events.push(after.is_completed ? 'item.completed' : 'item.uncompleted');
  if (before.status !== 'archived' && after.status === 'archived') events.push('item.archived');
  return events;
}

const stateChanged = (a: ItemState, b: ItemState): boolean =>
  a.is_completed !== b.is_completed ||
  a.status !== b.status ||
  a.status_before_archive !== b.status_before_archive ||
  a.archived_at !== b.archived_at;

const statePatch = (s: ItemState): ItemPatch => ({
  is_completed: s.is_completed ? 1 : 0,
  status: s.status,
  status_before_archive: s.status_before_archive,
  archived_at: s.archived_at,
});

const emptyToNull = (value: string | null | undefined): string | null => (value === null || value === undefined || value.trim() === '' ? null : value);

export function createItemChangesService(deps: {
  db: Db;
  clock: Clock;
  loader: ItemLoader;
  tags: TagsService;
  projects: ProjectsService;
  events: EventsService;
}): ItemChangesService {
  const { db, loader } = deps;
  const now = () => toTimestamp(deps.clock.now());

  async function reload(trx: Executor, userId: string, id: string): Promise<ItemView> {
    return loader.view(trx, userId, await loader.requireRow(trx, userId, id));
  }

  async function emit(trx: Executor, userId: string, item: ItemView, names: ItemEventName[]): Promise<void> {
    await deps.events.record(trx, userId, names.map((name): PendingEvent => ({ name, item })));
  }

  /** A new parent must be the user's item and must not sit below (or be) the item itself. */
  async function checkParent(trx: Executor, userId: string, itemId: string, parentId: string): Promise<void> {
    const ancestors = await findAncestorIds(trx, userId, parentId);
    if (ancestors.length === 0) throw badRequest('parent_id must be one of your items', 'parent_id');
    if (ancestors.includes(itemId)) throw badRequest('parent_id cannot be the item itself or one of its subtasks', 'parent_id');
  }

  const applyState: ItemChangesService['applyState'] = async (trx, userId, row, next) => {
    const before = stateOf(row);
    const at = now();
    const after = next(before, at);
    if (!stateChanged(before, after)) return loader.view(trx, userId, row);
    await updateItem(trx, userId, row.id, { ...statePatch(after), updated_at: at });
    const item = await reload(trx, userId, row.id);
    // Only unarchive announces itself as an update; toggle and archive have their own events.
    const unarchived = before.status === 'archived' && after.status !== 'archived';
    await emit(trx, userId, item, stateEvents(before, after, unarchived));
    return item;
  };

  const removeWithSubtasks: ItemChangesService['removeWithSubtasks'] = async (trx, userId, row) => {
    const ids = await findSubtreeIds(trx, userId, row.id);
    const doomed = await loader.views(trx, userId, await findItemsByIds(trx, userId, ids));
    await deleteItemsByIds(trx, userId, ids);
    await deps.events.record(trx, userId, doomed.map((item): PendingEvent => ({ name: 'item.deleted', item })));
    return ids;
  };

  const moveToProject: ItemChangesService['moveToProject'] = async (trx, userId, row, projectId) => {
    if (row.project_id === projectId) return loader.view(trx, userId, row);
    await updateItem(trx, userId, row.id, { project_id: projectId, updated_at: now() });
    const item = await reload(trx, userId, row.id);
    await emit(trx, userId, item, ['item.updated']);
    return item;
  };

  const onRow = <T>(userId: string, id: string, work: (trx: Executor, row: ItemRow) => Promise<T>): Promise<T> =>
    db.transaction().execute(async (trx) => work(trx, await loader.requireRow(trx, userId, id)));

  return {
    patch: (userId, id, input) =>
      onRow(userId, id, async (trx, row) => {
        const at = now();
        const patch: ItemPatch = {};
        if (input.title !== undefined) {
          const title = emptyToNull(input.title)?.trim() ?? null;
          if (title !== row.title) patch.title = title;
        }
        if (input.content_md !== undefined) {
          const content = emptyToNull(input.content_md);
          if (content !== row.content_md) patch.content_md = content;
        }
        if (input.due_at !== undefined) {
          const due = input.due_at === null ? null : parseTimestamp(input.due_at, 'due_at');
          if (due !== row.due_at) patch.due_at = due;
        }
        if (input.type !== undefined && input.type !== row.type) patch.type = input.type;
        if (input.project_id !== undefined && input.project_id !== row.project_id) {
          patch.project_id = (await deps.projects.requireProject(trx, userId, input.project_id)).id;
        }
        if (input.parent_id !== undefined && input.parent_id !== row.parent_id) {
          if (input.parent_id !== null) await checkParent(trx, userId, row.id, input.parent_id);
          patch.parent_id = input.parent_id;
        }
        const before = stateOf(row);
        const after = input.status === undefined ? before : setStatusState(before, input.status, at);
        if (stateChanged(before, after)) Object.assign(patch, statePatch(after));

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
        const changed = tagsChanged || Object.keys(patch).length > 0;
        if (!changed) return loader.view(trx, userId, row);
        await updateItem(trx, userId, row.id, { ...patch, updated_at: at });
        const item = await reload(trx, userId, row.id);
        await emit(trx, userId, item, stateEvents(before, after, true));
        return item;
      }),

    toggle: (userId, id) => onRow(userId, id, (trx, row) => applyState(trx, userId, row, (s) => toggleState(s))),
    archive: (userId, id) => onRow(userId, id, (trx, row) => applyState(trx, userId, row, archiveState)),
    unarchive: (userId, id) => onRow(userId, id, (trx, row) => applyState(trx, userId, row, (s) => unarchiveState(s))),
    remove: async (userId, id) => {
      await onRow(userId, id, (trx, row) => removeWithSubtasks(trx, userId, row));
    },

    applyState,
    removeWithSubtasks,
    moveToProject,

    async moveProjectItems(trx, userId, fromProjectId, toProjectId) {
      const ids = await findItemIdsInProject(trx, userId, fromProjectId);
      await moveItemsToProject(trx, userId, ids, toProjectId, now());
      const moved = await loader.views(trx, userId, await findItemsByIds(trx, userId, ids));
      await deps.events.record(trx, userId, moved.map((item): PendingEvent => ({ name: 'item.updated', item })));
    },
  };
}
