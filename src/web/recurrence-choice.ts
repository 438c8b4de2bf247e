import rrule from 'rrule';
import type { Recurrence } from '../modules/items/item-view.js';

// rrule is CommonJS: Node's ES loader gives its exports as the default export (dist runs unbundled).
const { RRule } = rrule;

/*
 * The item page's simple repeat choice and the contract's RRULE subset, both ways. A rule made
 * elsewhere (the API, `cin edit --every`, quick add) that is none of these shows as "custom" and is
 * kept as it is unless the user picks another choice.
 */

export const REPEAT_CHOICES = ['none', 'daily', 'weekdays', 'weekly', 'monthly', 'every_n_days', 'custom'] as const;
export type RepeatChoice = (typeof REPEAT_CHOICES)[number];

export const REPEAT_LABELS: Record<RepeatChoice, string> = {
  none: 'Does not repeat',
  daily: 'Every day',
  weekdays: 'Every weekday (Monday to Friday)',
  weekly: 'Every week',
  monthly: 'Every month',
  every_n_days: 'Every N days',
  custom: 'As set elsewhere',
};

const FIXED: Partial<Record<RepeatChoice, string>> = {
  daily: 'FREQ=DAILY',
  weekdays: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
  weekly: 'FREQ=WEEKLY',
  monthly: 'FREQ=MONTHLY',
};

export const MAX_EVERY_DAYS = 365;

export interface RepeatValues {
  repeat: RepeatChoice;
  /** The N of "every N days", as typed. */
  every_days: string;
  /** Counted from the due date or from completion. */
  repeat_from: 'due' | 'completion';
}

/** The choice a stored recurrence shows as. */
export function repeatValuesOf(recurrence: Recurrence | null): RepeatValues {
  if (!recurrence) return { repeat: 'none', every_days: '', repeat_from: 'due' };
  const fixed = (Object.keys(FIXED) as RepeatChoice[]).find((k) => FIXED[k] === recurrence.rule);
  const every = /^FREQ=DAILY;INTERVAL=([1-9]\d{0,2})$/.exec(recurrence.rule);
  return {
    repeat: fixed ?? (every ? 'every_n_days' : 'custom'),
    every_days: every ? every[1]! : '',
    repeat_from: recurrence.from,
  };
}

/** The recurrence a choice stands for; `current` is kept for "custom"; an error message for a bad N. */
export function recurrenceOf(v: RepeatValues, current: Recurrence | null): { recurrence: Recurrence | null } | { error: string } {
  if (v.repeat === 'none') return { recurrence: null };
  if (v.repeat === 'custom') return { recurrence: current ? { rule: current.rule, from: v.repeat_from } : null };
  if (v.repeat === 'every_n_days') {
    const n = v.every_days.trim();
    if (!/^\d{1,3}$/.test(n) || Number(n) < 1 || Number(n) > MAX_EVERY_DAYS) return { error: `Enter how many days apart, from 1 to ${MAX_EVERY_DAYS}.` };
    return { recurrence: { rule: Number(n) === 1 ? 'FREQ=DAILY' : `FREQ=DAILY;INTERVAL=${Number(n)}`, from: v.repeat_from } };
  }
  return { recurrence: { rule: FIXED[v.repeat]!, from: v.repeat_from } };
}

/** "Every weekday", "Every 3 days, counted from completion": the rule in words (English, as the rest of the pages). */
export function recurrenceInWords(recurrence: Recurrence): string {
  let words: string;
  try {
    words = RRule.fromString(recurrence.rule).toText();
  } catch {
    words = recurrence.rule;
  }
  const text = words.charAt(0).toUpperCase() + words.slice(1);
  return recurrence.from === 'completion' ? `${text}, counted from completion` : text;
}
