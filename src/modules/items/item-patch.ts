import type { ItemStatus, ItemType } from '../../db/schema.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import { setStatusState, stateDiff, stateOf, type ItemState } from './item-state.js';
import type { ItemRow } from './item-view.js';
import type { ItemPatch } from './items.repository.js';

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

const emptyToNull = (value: string | null | undefined): string | null => (value === null || value === undefined || value.trim() === '' ? null : value);

/**
 * The columns a PATCH changes among those that need no lookup (title, notes, due, type, status),
 * with the state before and after. Only what differs from the row is in the patch, so a PATCH that
 * restates the item changes nothing. Throws the contract's 400 on a malformed due_at.
 */
export function patchColumns(row: ItemRow, input: PatchInput, at: string): { patch: ItemPatch; before: ItemState; after: ItemState } {
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
  const before = stateOf(row);
  const after = input.status === undefined ? before : setStatusState(before, input.status, at);
  return { patch: { ...patch, ...stateDiff(before, after) }, before, after };
}
