import { toTimestamp } from '../../lib/timestamps.js';
import { findDueDate } from '../../lib/dates/due-date.js';
import { instantOf } from '../../lib/dates/zoned-time.js';
import { firstOccurrence } from '../quick-add/first-occurrence.js';
import { findRecurrenceWords } from '../quick-add/recurrence-words.js';
import type { PlanDrop } from './import-plan.js';

/*
 * The cells of a Todoist CSV task row, read one row at a time (todoist-csv.ts walks the rows).
 */

const LABEL = /(^|\s)@([^\s@,]{1,50})(?=\s|$)/gu;

/** `@label` words become tags and leave the title. */
export function splitLabels(content: string): { title: string; tags: string[] } {
  const tags: string[] = [];
  const title = content
    .replace(LABEL, (_m, space: string, name: string) => {
      tags.push(name);
      return space;
    })
    .replace(/\s{2,}/g, ' ')
    .trim();
  return { title, tags };
}

export interface ReadDue {
  due_at: string;
  /** A DATE without a time of day is all-day: due on that day, at 00:00 in the importing user's zone. */
  all_day: boolean;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** DATE is read as the organizer reads a date in a capture; a plain ISO date in the past is kept too. */
function readDateOnce(value: string, now: Date, zone: string): ReadDue | null {
  if (value === '') return null;
  const found = findDueDate(value, now, zone);
  if (found.dueAt) return { due_at: toTimestamp(found.dueAt), all_day: found.allDay };
  const day = ISO_DAY.exec(value);
  if (day) {
    const at = instantOf(zone, { year: Number(day[1]), month: Number(day[2]), day: Number(day[3]), hour: 0, minute: 0 });
    return Number.isNaN(at.getTime()) ? null : { due_at: toTimestamp(at), all_day: true };
  }
  const parsed = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? { due_at: toTimestamp(parsed), all_day: false } : null;
}

/**
 * A Todoist recurrence (`every 3 days`, `every monday 9am`, `every!`) in the DATE column, read with
 * quick add's recurrence words: the item recurs, due at the words' date or else the rule's first
 * occurrence. Words quick add does not read as a whole rule are reported as dropped, as before.
 */
const RECURRING = /^every!?(\s|$)|(^|\s)every\s/i;
export function carryRecurrence(
  dateText: string,
  line: number,
  dueAt: ReadDue | null,
  ctx: { now: Date; timezone: string },
): ({ recurrence: { rule: string; from: 'due' | 'completion' } } & ReadDue) | PlanDrop | null {
  if (!RECURRING.test(dateText)) return null;
  const words = findRecurrenceWords(dateText);
  const first = !dueAt && words ? firstOccurrence(words.rule, ctx.timezone, ctx.now, words.time) : null;
  const due = dueAt ?? (first ? { due_at: toTimestamp(first.at), all_day: first.allDay } : null);
  if (!words || !due) return { line_or_index: line, field: 'recurrence', value: dateText };
  return { recurrence: { rule: words.rule, from: words.from }, ...due };
}

/**
 * PRIORITY as Todoist's CSV writes it: 1 is p1 (the highest) and 4 is p4, the default. Items have
 * no priority: anything above the default is reported as dropped.
 */
export function droppedPriority(value: string, line: number): PlanDrop | null {
  const level = Number.parseInt(value, 10);
  return level >= 1 && level <= 3 ? { line_or_index: line, field: 'priority', value: `p${level}` } : null;
}

/** DATE cells read in one import, kept: an export repeats a few hundred dates over its rows. Bounded. */
const DATES_KEPT = 1000;

/**
 * readDate for one import (one `now`, one zone): the same cell is read once. Reading a date is
 * the organizer's parse in the user's zone, a tenth of an import's CPU when each row did it.
 */
export function dateReader(now: Date, zone: string): (value: string) => ReadDue | null {
  const kept = new Map<string, ReadDue | null>();
  return (value) => {
    if (value === '') return null;
    if (kept.has(value)) return kept.get(value)!;
    const read = readDateOnce(value, now, zone);
    if (kept.size >= DATES_KEPT) kept.clear();
    kept.set(value, read);
    return read;
  };
}
