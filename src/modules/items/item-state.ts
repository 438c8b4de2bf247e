import type { ItemStatus } from '../../db/schema.js';

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
  const status: ItemStatus = state.is_completed
    ? 'done'
    : remembered && remembered !== 'done' && remembered !== 'archived'
      ? remembered
      : 'todo';
  return { ...state, status, status_before_archive: null, archived_at: null };
}

export function setStatusState(state: ItemState, status: ItemStatus, now: string): ItemState {
  if (status === 'archived') return archiveState(state, now);
  if (state.status === 'archived') return unarchiveState(state, status);
  if (state.status === status) return state;
  return { ...state, status, is_completed: status === 'done' };
}
