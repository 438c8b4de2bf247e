import type { Db, Executor, ItemStatus, ItemType } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseTimestamp, toTimestamp } from '../../lib/timestamps.js';
import type { EventsService, ItemEventName, PendingEvent } from '../events/events.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { normalizeTagNames, tagKey, type TagsService } from '../tags/tags.service.js';
import type { ItemPrecondition } from './item-etag.js';
import type { ItemLoader } from './item-loader.js';
import { archiveState, setStatusState, toggleState, unarchiveState, type ItemState } from './item-state.js';
import type { ItemRow, ItemView } from './item-view.js';
import {
  deleteItemsByIds,
  findAncestorIds,
  findItemIdsInProject,
  findItemsByIds,
  findSubtrees,
  moveItemsToProject,
  updateItems,
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
  // `precondition` (If-Match) is checked against the locked row inside the change's transaction.
  patch(userId: string, id: string, input: PatchInput, precondition?: ItemPrecondition): Promise<ItemView>;
  toggle(userId: string, id: string, precondition?: ItemPrecondition): Promise<ItemView>;
  archive(userId: string, id: string, precondition?: ItemPrecondition): Promise<ItemView>;
  unarchive(userId: string, id: string, precondition?: ItemPrecondition): Promise<ItemView>;
  remove(userId: string, id: string, precondition?: ItemPrecondition): Promise<void>;
  // Steps over many rows inside a caller's transaction, shared by the single-item routes (one row)
  // and bulk operations: every row gets the effect and events of the single-item route, events
  // follow the order of `rows`, and the number of queries does not grow with the rows.
  /** Answers the views of the rows it changed; rows it leaves unchanged are neither written nor announced. */
  applyStates(
    trx: Executor,
    userId: string,
    rows: readonly ItemRow[],
    next: (state: ItemState, now: string) => ItemState,
  ): Promise<Map<string, ItemView>>;
  /** Deletes the items and their subtasks at any depth, each announced once (an item under two listed ones with the first). */
  removeWithSubtasks(trx: Executor, userId: string, rows: readonly ItemRow[]): Promise<void>;
  /** Moves items (not their subtasks) to a project the caller has checked, like PATCH project_id; answers the moved ones. */
  moveToProject(trx: Executor, userId: string, rows: readonly ItemRow[], projectId: string): Promise<Map<string, ItemView>>;
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

/**
 * Only the columns that change: rows whose change is the same then share one UPDATE (toggling
 * archived items must not carry each row's own archived_at along).
 */
function stateDiff(before: ItemState, after: ItemState): ItemPatch {
  const patch: ItemPatch = {};
  if (before.is_completed !== after.is_completed) patch.is_completed = after.is_completed ? 1 : 0;
  if (before.status !== after.status) patch.status = after.status;
  if (before.status_before_archive !== after.status_before_archive) patch.status_before_archive = after.status_before_archive;
  if (before.archived_at !== after.archived_at) patch.archived_at = after.archived_at;
  return patch;
}

/** One row's change: the columns to write (besides updated_at) and the events it announces. */
interface Change {
  row: ItemRow;
  patch: ItemPatch;
  events: ItemEventName[];
}

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

  /**
   * Writes changes made at one instant: one UPDATE per distinct patch, one reload of the changed
   * rows with their tags, and one outbox insert with every event in the order of `changes`.
   */
  async function commit(trx: Executor, userId: string, changes: readonly Change[], at: string): Promise<Map<string, ItemView>> {
    if (changes.length === 0) return new Map();
    const groups = new Map<string, { patch: ItemPatch; ids: string[] }>();
    for (const { row, patch } of changes) {
      const key = JSON.stringify(patch);
      const group = groups.get(key);
      if (group) group.ids.push(row.id);
      else groups.set(key, { patch, ids: [row.id] });
    }
    for (const { patch, ids } of groups.values()) await updateItems(trx, userId, ids, { ...patch, updated_at: at });
    const reloaded = await loader.rows(trx, userId, changes.map((c) => c.row.id));
    const views = new Map((await loader.views(trx, userId, reloaded)).map((item) => [item.id, item]));
    const events: PendingEvent[] = [];
    for (const change of changes) {
      const item = views.get(change.row.id);
      // Deleted by a concurrent transaction since it was read (PostgreSQL, read committed): gone, so 404.
      if (!item) throw notFound('item');
      for (const name of change.events) events.push({ name, item });
    }
    if (events.length > 0) await deps.events.record(trx, userId, events);
    return views;
  }

  /** The row as a single-item route answers it after a step: reloaded when the step changed it. */
  async function viewAfter(trx: Executor, userId: string, row: ItemRow, changed: Map<string, ItemView>): Promise<ItemView> {
    return changed.get(row.id) ?? loader.view(trx, userId, row);
  }

  /** A new parent must be the user's item and must not sit below (or be) the item itself. */
  async function checkParent(trx: Executor, userId: string, itemId: string, parentId: string): Promise<void> {
    const ancestors = await findAncestorIds(trx, userId, parentId);
    if (ancestors.length === 0) throw badRequest('parent_id must be one of your items', 'parent_id');
    if (ancestors.includes(itemId)) throw badRequest('parent_id cannot be the item itself or one of its subtasks', 'parent_id');
  }

  const applyStates: ItemChangesService['applyStates'] = async (trx, userId, rows, next) => {
    const at = now();
    const changes: Change[] = [];
    for (const row of rows) {
      const before = stateOf(row);
      const after = next(before, at);
      const patch = stateDiff(before, after);
      if (Object.keys(patch).length === 0) continue;
      // Only unarchive announces itself as an update; toggle and archive have their own events.
      const unarchived = before.status === 'archived' && after.status !== 'archived';
      changes.push({ row, patch, events: stateEvents(before, after, unarchived) });
    }
    return commit(trx, userId, changes, at);
  };

  const removeWithSubtasks: ItemChangesService['removeWithSubtasks'] = async (trx, userId, rows) => {
    const below = new Map<string, string[]>();
    for (const { root, id } of await findSubtrees(trx, userId, rows.map((r) => r.id))) {
      if (id === root) continue;
      const ids = below.get(root);
      if (ids) ids.push(id);
      else below.set(root, [id]);
    }
    // Each listed item, then its subtasks; a Set keeps an item where it first appears.
    const order = new Set<string>();
    for (const row of rows) {
      order.add(row.id);
      for (const id of below.get(row.id) ?? []) order.add(id);
    }
    const ids = [...order];
    const doomed = new Map((await loader.views(trx, userId, await loader.rows(trx, userId, ids))).map((item) => [item.id, item]));
    await deleteItemsByIds(trx, userId, ids);
    const events = ids.flatMap((id): PendingEvent[] => {
      const item = doomed.get(id);
      return item ? [{ name: 'item.deleted', item }] : [];
    });
    if (events.length > 0) await deps.events.record(trx, userId, events);
  };

  const moveToProject: ItemChangesService['moveToProject'] = (trx, userId, rows, projectId) =>
    commit(
      trx,
      userId,
      rows.filter((row) => row.project_id !== projectId).map((row): Change => ({ row, patch: { project_id: projectId }, events: ['item.updated'] })),
      now(),
    );

  const onRow = <T>(userId: string, id: string, work: (trx: Executor, row: ItemRow) => Promise<T>, precondition?: ItemPrecondition): Promise<T> =>
    db.transaction().execute(async (trx) => {
      const row = await loader.requireLockedRow(trx, userId, id);
      if (precondition) precondition(await loader.view(trx, userId, row));
      return work(trx, row);
    });

  return {
    patch: (userId, id, input, precondition) =>
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
        Object.assign(patch, stateDiff(before, after));

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
        return viewAfter(trx, userId, row, await commit(trx, userId, [{ row, patch, events: stateEvents(before, after, true) }], at));
      }, precondition),

    toggle: (userId, id, precondition) =>
      onRow(userId, id, async (trx, row) => viewAfter(trx, userId, row, await applyStates(trx, userId, [row], (s) => toggleState(s))), precondition),
    archive: (userId, id, precondition) =>
      onRow(userId, id, async (trx, row) => viewAfter(trx, userId, row, await applyStates(trx, userId, [row], archiveState)), precondition),
    unarchive: (userId, id, precondition) =>
      onRow(userId, id, async (trx, row) => viewAfter(trx, userId, row, await applyStates(trx, userId, [row], (s) => unarchiveState(s))), precondition),
    remove: async (userId, id, precondition) => {
      await onRow(userId, id, (trx, row) => removeWithSubtasks(trx, userId, [row]), precondition);
    },

    applyStates,
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
