import type { PatchInput } from '../modules/items/patch-columns.js';
import type { ItemView } from '../modules/items/item-view.js';
import { dueInputs, parseDueInputs } from './dates.js';
import { recurrenceOf, repeatValuesOf, REPEAT_CHOICES, type RepeatValues } from './recurrence-choice.js';

/** The item page's reminder and repeat form, as the user sees it (and gets back when something is wrong). */
export interface ReminderFormValues extends RepeatValues {
  remind_date: string;
  remind_time: string;
}

export type ReminderErrors = Partial<Record<'remind_date' | 'repeat' | 'every_days' | 'form', string>>;

export function reminderValuesOf(item: ItemView, zone: string): ReminderFormValues {
  const remind = dueInputs(item.remind_at, zone);
  return { remind_date: remind.date, remind_time: remind.time, ...repeatValuesOf(item.recurrence) };
}

export interface ReminderBody {
  remind_date?: string | undefined;
  remind_time?: string | undefined;
  repeat?: string | undefined;
  every_days?: string | undefined;
  repeat_from?: string | undefined;
}

export function reminderValuesFromBody(body: ReminderBody): ReminderFormValues {
  return {
    remind_date: body.remind_date ?? '',
    remind_time: body.remind_time ?? '',
    repeat: REPEAT_CHOICES.find((c) => c === body.repeat) ?? 'none',
    every_days: body.every_days ?? '',
    repeat_from: body.repeat_from === 'completion' ? 'completion' : 'due',
  };
}

/**
 * The PATCH the form stands for: remind_at always explicit (an empty date clears it, so the
 * user's default reminder never quietly takes its place), and the recurrence. A reminder date
 * without a time is at 09:00, the start of a day, not a due date's 17:00.
 */
export function reminderPatchOf(v: ReminderFormValues, item: ItemView, zone: string): { patch: PatchInput } | { errors: ReminderErrors } {
  const errors: ReminderErrors = {};
  // No date is no reminder, whatever time is left in its field (clearing the date is how it is removed).
  const remind = v.remind_date.trim() === '' ? { iso: null } : parseDueInputs(v.remind_date, v.remind_time.trim() === '' ? '09:00' : v.remind_time, zone);
  if ('error' in remind) errors.remind_date = remind.error;
  const repeat = recurrenceOf(v, item.recurrence);
  if ('error' in repeat) errors.every_days = repeat.error;
  else if (repeat.recurrence && !item.due_at) errors.repeat = 'A repeating item needs a due date: set one under Edit first.';
  if ('error' in remind || 'error' in repeat || Object.keys(errors).length > 0) return { errors };
  return { patch: { remind_at: remind.iso, recurrence: repeat.recurrence } };
}

/** The form field a service error is about. */
export function reminderFieldOf(field: string | undefined): keyof ReminderErrors {
  if (field === 'remind_at') return 'remind_date';
  if (field?.startsWith('recurrence')) return 'repeat';
  return 'form';
}
