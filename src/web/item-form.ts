import type { ItemStatus, ItemType } from '../db/schema.js';
import type { PatchInput } from '../modules/items/patch-columns.js';
import type { ItemView } from '../modules/items/item-view.js';
import { dueInputs, parseDueInputs } from './dates.js';
import { CAPTURE_TEXT_MAX } from '../lib/capture-text.js';

/** The edit form's fields as the user sees them (and gets back when something is wrong). */
export interface ItemFormValues {
  title: string;
  notes: string;
  type: ItemType;
  status: ItemStatus;
  due_date: string;
  due_time: string;
  /** Due on the date, without a time (the time field is then ignored). */
  all_day: boolean;
  project_id: string;
  /** The tags kept (ticked boxes). */
  tags: string[];
  /** Tags to add, separated by commas. */
  new_tags: string;
  parent_id: string;
}

/** A message per field, shown next to it. */
export type FieldErrors = Partial<Record<keyof ItemFormValues | 'form', string>>;

export const TITLE_MAX = 500;
export const NOTES_MAX = CAPTURE_TEXT_MAX;
const TYPES: readonly ItemType[] = ['todo', 'note'];
export const STATUSES: readonly ItemStatus[] = ['backlog', 'todo', 'doing', 'done', 'archived'];

export function valuesOf(item: ItemView, zone: string): ItemFormValues {
  const due = dueInputs(item.due_at, zone, item.all_day);
  return {
    title: item.title ?? '',
    notes: item.content_md ?? '',
    type: item.type,
    status: item.status,
    due_date: due.date,
    due_time: due.time,
    all_day: item.all_day,
    project_id: item.project_id,
    tags: item.tags,
    new_tags: '',
    parent_id: item.parent_id ?? '',
  };
}

export interface EditBody {
  title?: string | undefined;
  notes?: string | undefined;
  type?: string | undefined;
  status?: string | undefined;
  due_date?: string | undefined;
  due_time?: string | undefined;
  all_day?: string | undefined;
  project_id?: string | undefined;
  tag?: string | string[] | undefined;
  new_tags?: string | undefined;
  parent_id?: string | undefined;
}

/** The posted form as values (unknown choices fall back to the item's own). */
export function valuesFromBody(body: EditBody, current: ItemFormValues): ItemFormValues {
  const tags = body.tag === undefined ? [] : Array.isArray(body.tag) ? body.tag : [body.tag];
  return {
    title: body.title ?? '',
    notes: body.notes ?? '',
    type: TYPES.find((t) => t === body.type) ?? current.type,
    status: STATUSES.find((s) => s === body.status) ?? current.status,
    due_date: body.due_date ?? '',
    due_time: body.due_time ?? '',
    all_day: body.all_day === 'on',
    project_id: body.project_id || current.project_id,
    tags,
    new_tags: body.new_tags ?? '',
    parent_id: body.parent_id ?? '',
  };
}

/**
 * The contract's limits checked field by field (the API's schema does the same with one 400), then
 * the patch; the service checks the rest (tags, project, parent) and its errors name their field.
 */
export function patchOf(v: ItemFormValues, zone: string): { patch: PatchInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (Array.from(v.title).length > TITLE_MAX) errors.title = `A title has at most ${TITLE_MAX} characters; this one has ${Array.from(v.title).length}.`;
  if (Array.from(v.notes).length > NOTES_MAX) errors.notes = `Notes have at most ${NOTES_MAX.toLocaleString('en')} characters.`;
  // "All day" ticked: the date alone; a date without a time is all-day as well.
  const due = parseDueInputs(v.due_date, v.all_day ? '' : v.due_time, zone);
  if ('error' in due) errors.due_date = due.error;
  if (Object.keys(errors).length > 0 || 'error' in due) return { errors };
  const added = v.new_tags
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return {
    patch: {
      title: v.title.trim() === '' ? null : v.title,
      content_md: v.notes.trim() === '' ? null : v.notes,
      type: v.type,
      status: v.status,
      due_at: due.iso,
      ...(due.iso ? { all_day: due.allDay } : {}),
      project_id: v.project_id,
      tags: [...v.tags, ...added],
      parent_id: v.parent_id === '' ? null : v.parent_id,
    },
  };
}

/** The form field a service error is about (the API names them after the JSON body). */
export function fieldOfError(field: string | undefined): keyof ItemFormValues | 'form' {
  switch (field) {
    case 'title':
      return 'title';
    case 'content_md':
      return 'notes';
    case 'due_at':
      return 'due_date';
    case 'tags':
      return 'new_tags';
    case 'parent_id':
      return 'parent_id';
    case 'project_id':
      return 'project_id';
    default:
      return 'form';
  }
}
