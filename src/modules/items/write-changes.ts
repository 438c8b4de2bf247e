import type { Executor } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EventsService, PendingEvent } from '../events/events.service.js';
import type { ItemLoader } from './item-loader.js';
import { stateChange, type AdvanceRecurring, type ItemChange, type NextState, type ReadRow } from './item-change.js';
import { toItemView, type ItemRow, type ItemView } from './item-view.js';
import { deleteItemsByIds, findItemIdsInProject, findItemsByIds, findSubtrees, moveItemsToProject, updateItems, type ItemPatch } from './items.repository.js';

/**
 * The write steps every change of items is made of, run inside the caller's transaction: the
 * single-item operations (one row), bulk operations, the organizer and project deletion. Every row
 * gets the effect and events of the single-item route, events follow the order of the rows, and the
 * number of queries does not grow with the rows.
 */
export interface ItemWrites {
  /** Writes changes made at `at`, answers the changed rows' views; an empty list writes nothing. */
  commit(trx: Executor, userId: string, changes: readonly ItemChange[], at: string): Promise<Map<string, ItemView>>;
  /** Answers the views of the rows it changed; rows it leaves unchanged are neither written nor announced. */
  applyStates(trx: Executor, userId: string, rows: readonly ReadRow[], next: NextState): Promise<Map<string, ItemView>>;
  /** Deletes the items and their subtasks at any depth, each announced once (an item under two listed ones with the first). */
  removeWithSubtasks(trx: Executor, userId: string, rows: readonly ItemRow[]): Promise<void>;
  /** Moves items (not their subtasks) to a project the caller has checked, like PATCH project_id; answers the moved ones. */
  moveToProject(trx: Executor, userId: string, rows: readonly ReadRow[], projectId: string): Promise<Map<string, ItemView>>;
  /** A deleted project's items go to another project (the Inbox), each announced as updated. */
  moveProjectItems(trx: Executor, userId: string, fromProjectId: string, toProjectId: string): Promise<void>;
  now(): string;
}

export function createItemWrites(deps: {
  clock: Clock;
  loader: ItemLoader;
  events: EventsService;
  /** Completing a recurring item moves it on (recurrence/recurring-completion.ts): a port, as recurrence sits above items. */
  advanceRecurring: AdvanceRecurring;
}): ItemWrites {
  const { loader } = deps;
  const now = () => toTimestamp(deps.clock.now());

  /** One UPDATE … RETURNING per distinct patch, one tag query for all changed rows, one outbox insert. */
  const commit: ItemWrites['commit'] = async (trx, userId, requested, at) => {
    if (requested.length === 0) return new Map();
    const changes = await deps.advanceRecurring(trx, userId, requested, at);
    const groups = new Map<string, { patch: ItemPatch; ids: string[] }>();
    for (const { row, patch } of changes) {
      const key = JSON.stringify(patch);
      const group = groups.get(key);
      if (group) group.ids.push(row.id);
      else groups.set(key, { patch, ids: [row.id] });
    }
    const written: ItemRow[] = [];
    for (const { patch, ids } of groups.values()) written.push(...(await updateItems(trx, userId, ids, { ...patch, updated_at: at })));
    const known = new Map<string, readonly string[]>();
    for (const change of changes) if (change.tags) known.set(change.row.id, change.tags);
    const views = new Map(
      (written.every((row) => known.has(row.id)) ? written.map((row) => toItemView(row, known.get(row.id)!)) : await loader.views(trx, userId, written)).map(
        (item) => [item.id, item],
      ),
    );
    const events: PendingEvent[] = [];
    for (const change of changes) {
      const item = views.get(change.row.id);
      // Deleted by a concurrent transaction since it was read (PostgreSQL, read committed): gone, so 404.
      if (!item) throw notFound('item');
      const occ = change.occurrence;
      for (const name of change.events) {
        if (occ && name === 'item.completed') {
          // The occurrence as completed; the item itself has moved on (item.updated follows).
          events.push({
            name,
            item: { ...item, is_completed: true, status: 'done', due_at: occ.due_at, remind_at: occ.remind_at },
            next_due_at: occ.next_due_at,
          });
        } else events.push({ name, item });
      }
    }
    if (events.length > 0) await deps.events.record(trx, userId, events);
    return views;
  };

  return {
    commit,
    now,

    async applyStates(trx, userId, rows, next) {
      const at = now();
      const changes: ItemChange[] = [];
      for (const row of rows) {
        const change = stateChange(row, next, at);
        if (change) changes.push(change);
      }
      return commit(trx, userId, changes, at);
    },

    async removeWithSubtasks(trx, userId, rows) {
      const below = new Map<string, string[]>();
      for (const { root, id } of await findSubtrees(
        trx,
        userId,
        rows.map((r) => r.id),
      )) {
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
    },

    moveToProject: (trx, userId, rows, projectId) =>
      commit(
        trx,
        userId,
        rows
          .filter((row) => row.project_id !== projectId)
          .map((row): ItemChange => ({ row, patch: { project_id: projectId }, events: ['item.updated'], ...(row.tags ? { tags: row.tags } : {}) })),
        now(),
      ),

    async moveProjectItems(trx, userId, fromProjectId, toProjectId) {
      const ids = await findItemIdsInProject(trx, userId, fromProjectId);
      await moveItemsToProject(trx, userId, ids, toProjectId, now());
      const moved = await loader.views(trx, userId, await findItemsByIds(trx, userId, ids));
      await deps.events.record(
        trx,
        userId,
        moved.map((item): PendingEvent => ({ name: 'item.updated', item })),
      );
    },
  };
}
