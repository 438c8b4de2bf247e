import type { ItemStatus, ItemType } from '../../db/schema.js';

/** The part of an item that status changes touch; the rules of the contract's "Items" section. */
export interface ItemState {
  is_completed: boolean;
  status: ItemStatus;
  status_before_archive: ItemStatus | null;
  archived_at: string | null;
}

// Invariant: outside `archived`, status is `done` exactly when is_completed is true.

export function toggleState(state: ItemState, target?: boolean): ItemState {
  const completed = target ?? !state.is_completed;
  if (completed === state.is_completed) return state;
  if (state.status === 'archived') return { ...state, is_completed: completed };
  return { ...state, is_completed: completed, status: completed ? 'done' : 'todo' };
}

export function archiveState(state: ItemState, now: string): ItemState {
  if (state.status === 'archived') return state;
  return { ...state, status: 'archived', status_before_archive: state.status, archived_at: now };
}

export function unarchiveState(state: ItemState, target?: Exclude<ItemStatus, 'archived'>): ItemState {
  if (state.status !== 'archived') return state;
  if (target) {
    return { status: target, is_completed: target === 'done', status_before_archive: null, archived_at: null };
  }
  const remembered = state.status_before_archive;
  const status: ItemStatus = state.is_completed ? 'done' : remembered && remembered !== 'done' && remembered !== 'archived' ? remembered : 'todo';
  return { ...state, status, status_before_archive: null, archived_at: null };
}

export function setStatusState(state: ItemState, status: ItemStatus, now: string): ItemState {
  if (status === 'archived') return archiveState(state, now);
  if (state.status === 'archived') return unarchiveState(state, status);
  if (state.status === status) return state;
  return { ...state, status, is_completed: status === 'done' };
}

/** A new item's state: a todo starts open, a note in the backlog. */
export function freshState(type: ItemType): ItemState {
  return { is_completed: false, status: type === 'todo' ? 'todo' : 'backlog', status_before_archive: null, archived_at: null };
}

/** The state columns of a stored row (SQLite stores is_completed as 0/1). */
export function stateOf(row: { is_completed: boolean | number } & Omit<ItemState, 'is_completed'>): ItemState {
  return {
    is_completed: Boolean(row.is_completed),
    status: row.status,
    status_before_archive: row.status_before_archive,
    archived_at: row.archived_at,
  };
}

/** The state columns that differ, to write: rows whose change is the same can then share one UPDATE. */
export function stateDiff(before: ItemState, after: ItemState): Partial<Omit<ItemState, 'is_completed'> & { is_completed: number }> {
  const diff: Partial<Omit<ItemState, 'is_completed'> & { is_completed: number }> = {};
  if (before.is_completed !== after.is_completed) diff.is_completed = after.is_completed ? 1 : 0;
  if (before.status !== after.status) diff.status = after.status;
  if (before.status_before_archive !== after.status_before_archive) diff.status_before_archive = after.status_before_archive;
  if (before.archived_at !== after.archived_at) diff.archived_at = after.archived_at;
  return diff;
}

/** What a state change announces, by the contract's table (besides item.updated, which the caller decides). */
export function stateEventNames(before: ItemState, after: ItemState): Array<'item.completed' | 'item.uncompleted' | 'item.archived'> {
  const names: Array<'item.completed' | 'item.uncompleted' | 'item.archived'> = [];
  if (before.is_completed !== after.is_completed) names.push(after.is_completed ? 'item.completed' : 'item.uncompleted');
  if (before.status !== 'archived' && after.status === 'archived') names.push('item.archived');
  return names;
}
