import type { ItemView } from '../items/item-view.js';

/*
 * The inverse of one action on one item, read from the item before and after it (issue 47 item 1,
 * decision 0076). Pure: the service stores it and applies it. Each part is what the action changed
 * and nothing else, so undoing never overwrites a field the action did not touch.
 */

/** A state change to reverse: the route that puts the item's state back. */
export type StateStep = 'reopen' | 'complete' | 'archive' | 'unarchive';

export interface Inverse {
  /** The fields to put back, with their values before the action. */
  patch: { due_at?: string | null; all_day?: boolean; remind_at?: string | null; project_id?: string };
  state: StateStep | null;
  /**
   * A recurring item's completed occurrence: completing it logged a completion and moved the item
   * to its next occurrence; undoing deletes that completion (its due_at and completed_at) as well.
   */
  forgetCompletion: { due_at: string; completed_at: string } | null;
}

/** How the action left the item, in the words of the toast ("marked done", "moved to Work"…). */
export type ActionKind = 'completed' | 'completedOccurrence' | 'reopened' | 'archived' | 'unarchived' | 'moved' | 'dated' | 'changed';

function stateStep(before: ItemView, after: ItemView): StateStep | null {
  const wasArchived = before.status === 'archived';
  const isArchived = after.status === 'archived';
  if (!wasArchived && isArchived) return 'unarchive';
  if (wasArchived && !isArchived) return 'archive';
  if (before.is_completed !== after.is_completed) return before.is_completed ? 'complete' : 'reopen';
  return null;
}

/**
 * The inverse of the change from `before` to `after` (null when nothing changed). A recurring
 * item's completion shows as an item still open whose due date moved on: its inverse is the old
 * due date and reminder back, and the completion it logged (at `after.updated_at`) forgotten;
 * never another toggle, which would complete a second occurrence.
 */
export function inverseOf(before: ItemView, after: ItemView): { inverse: Inverse; kind: ActionKind } | null {
  const patch: Inverse['patch'] = {};
  if (before.due_at !== after.due_at) patch.due_at = before.due_at;
  // A due date put back is a day or a time as it was (a PATCH of due_at alone keeps the item's all_day).
  if (before.due_at !== null && (patch.due_at !== undefined || before.all_day !== after.all_day)) {
    patch.due_at = before.due_at;
    patch.all_day = before.all_day;
  }
  // With a due date, always the reminder too: a due date patched alone would get the default reminder.
  if (before.remind_at !== after.remind_at || patch.due_at !== undefined) patch.remind_at = before.remind_at;
  if (before.project_id !== after.project_id) patch.project_id = before.project_id;
  const state = stateStep(before, after);
  const occurrence = before.recurrence !== null && !before.is_completed && !after.is_completed && before.due_at !== null && after.due_at !== before.due_at;
  if (occurrence && state === null && patch.project_id === undefined) {
    return {
      inverse: { patch, state: null, forgetCompletion: { due_at: before.due_at!, completed_at: after.updated_at } },
      kind: 'completedOccurrence',
    };
  }
  if (state === null && Object.keys(patch).length === 0) return null;
  return { inverse: { patch, state, forgetCompletion: null }, kind: kindOf(state, patch) };
}

function kindOf(state: StateStep | null, patch: Inverse['patch']): ActionKind {
  if (state === 'reopen') return 'completed';
  if (state === 'complete') return 'reopened';
  if (state === 'unarchive') return 'archived';
  if (state === 'archive') return 'unarchived';
  if (patch.project_id !== undefined) return 'moved';
  if (patch.due_at !== undefined) return 'dated';
  return 'changed';
}

/** The inverse as stored; null when the text is not one (a row from a later version, say). */
export function parseInverse(text: string): Inverse | null {
  try {
    const value = JSON.parse(text) as Partial<Inverse>;
    if (typeof value !== 'object' || value === null || typeof value.patch !== 'object' || value.patch === null) return null;
    const steps: ReadonlyArray<StateStep | null> = ['reopen', 'complete', 'archive', 'unarchive', null];
    if (!steps.includes(value.state ?? null)) return null;
    return { patch: value.patch, state: value.state ?? null, forgetCompletion: value.forgetCompletion ?? null };
  } catch {
    return null;
  }
}
