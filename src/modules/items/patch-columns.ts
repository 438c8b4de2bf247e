import type { ItemStatus, ItemType } from '../../db/schema.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import { setStatusState, stateDiff, stateOf, type ItemState } from './item-state.js';
import { badRequest } from '../../errors.js';
import type { ItemRow, Recurrence } from './item-view.js';
import type { ItemPatch } from './items.repository.js';
import { searchText } from '../../lib/word-breaks.js';
import { allDayDueAt } from '../../lib/dates/all-day.js';

export interface PatchInput {
  title?: string | null;
  content_md?: string | null;
  due_at?: string | null;
  /** Due on a day: due_at moves to 00:00 local of its date. Left out, the item keeps its own. */
  all_day?: boolean;
  project_id?: string;
  status?: ItemStatus;
  parent_id?: string | null;
  tags?: string[];
  type?: ItemType;
  recurrence?: Recurrence | null;
  remind_at?: string | null;
}

const emptyToNull = (value: string | null | undefined): string | null => (value === null || value === undefined || value.trim() === '' ? null : value);

/**
 * The columns a PATCH changes among those that need no lookup (title, notes, due, type, status),
 * with the state before and after. Only what differs from the row is in the patch, so a PATCH that
 * restates the item changes nothing. Throws the contract's 400 on a malformed due_at, and what
 * `checkRecurrence` (the recurrence rules, through the ItemSchedule port) throws on a bad rule.
 */
export function patchColumns(
  row: ItemRow,
  input: PatchInput,
  at: string,
  checkRecurrence: (recurrence: Recurrence) => Recurrence,
  zone: string,
): { patch: ItemPatch; before: ItemState; after: ItemState } {
  const patch: ItemPatch = {};
  if (input.title !== undefined) {
    const title = emptyToNull(input.title)?.trim() ?? null;
    if (title !== row.title) patch.title = title;
  }
  if (input.content_md !== undefined) {
    const content = emptyToNull(input.content_md);
    if (content !== row.content_md) patch.content_md = content;
  }
  if (patch.title !== undefined || patch.content_md !== undefined) {
    patch.search_text = searchText(patch.title !== undefined ? patch.title : row.title, patch.content_md !== undefined ? patch.content_md : row.content_md);
  }
  if (input.due_at !== undefined) {
    const due = input.due_at === null ? null : parseTimestamp(input.due_at, 'due_at');
    if (due !== row.due_at) patch.due_at = due;
  }
  settleAllDay(row, patch, input, zone);
  if (input.type !== undefined && input.type !== row.type) patch.type = input.type;
  if (input.recurrence !== undefined) {
    const wanted = input.recurrence === null ? null : checkRecurrence(input.recurrence);
    if ((wanted?.rule ?? null) !== row.recurrence_rule || (wanted?.from ?? null) !== row.recurrence_from) {
      patch.recurrence_rule = wanted?.rule ?? null;
      patch.recurrence_from = wanted?.from ?? null;
    }
  }
  if (input.remind_at !== undefined) {
    const remind = input.remind_at === null ? null : parseTimestamp(input.remind_at, 'remind_at');
    if (remind !== row.remind_at) patch.remind_at = remind;
  }
  checkRecurrenceHasDue(row, patch, input);
  const before = stateOf(row);
  const after = input.status === undefined ? before : setStatusState(before, input.status, at);
  return { patch: { ...patch, ...stateDiff(before, after) }, before, after };
}

/**
 * The contract's all-day rules: `all_day: true` needs a due date (400 otherwise); an all-day due is
 * 00:00 local of its date, whatever time it was given at; clearing the due date clears all_day; a
 * new due_at without all_day keeps the item's all_day.
 */
function settleAllDay(row: ItemRow, patch: ItemPatch, input: PatchInput, zone: string): void {
  if (input.due_at === undefined && input.all_day === undefined) return;
  const due = patch.due_at !== undefined ? patch.due_at : row.due_at;
  if (input.all_day === true && (due === null || due === undefined)) {
    throw badRequest('all_day needs a due_at: give one in the same request', 'all_day');
  }
  const allDay = due !== null && due !== undefined && (input.all_day ?? Boolean(row.all_day));
  if (allDay && due) {
    const day = allDayDueAt(zone, due);
    if (day !== row.due_at) patch.due_at = day;
    else delete patch.due_at;
  }
  if (allDay !== Boolean(row.all_day)) patch.all_day = allDay ? 1 : 0;
}

/** A recurring item needs a due date: setting a rule without one, or clearing the due date of a recurring item without ending the rule, is 400. */
function checkRecurrenceHasDue(row: ItemRow, patch: ItemPatch, input: PatchInput): void {
  const rule = patch.recurrence_rule !== undefined ? patch.recurrence_rule : row.recurrence_rule;
  const due = patch.due_at !== undefined ? patch.due_at : row.due_at;
  if (rule === null || rule === undefined || (due !== null && due !== undefined)) return;
  if (input.recurrence) throw badRequest('a recurrence needs a due_at: give one in the same request', 'recurrence');
  throw badRequest('this item recurs: clearing its due_at needs recurrence: null in the same PATCH', 'due_at');
}
