import { instantOf, wallTimeAt } from './zoned-time.js';

/*
 * All-day dues (contract "All-day dates"): an item due on a day is stored with due_at at 00:00 of
 * that day in the user's zone. These are the rules every way of setting one shares (capture, PATCH,
 * quick add, the organizer, import, the timezone change).
 */

/** 00:00 of the calendar day `instant` falls on in `zone`: where an all-day due is stored. */
export function startOfLocalDay(zone: string, instant: Date): Date {
  const { year, month, day } = wallTimeAt(zone, instant);
  return instantOf(zone, { year, month, day, hour: 0, minute: 0 });
}

/** `due_at` as an all-day item stores it: 00:00 local of its local date (a value at 13:45 keeps its date). */
export function allDayDueAt(zone: string, dueAt: string): string {
  return startOfLocalDay(zone, new Date(dueAt)).toISOString();
}

/** The same calendar day, moved from one zone to another: what a timezone change does to an all-day due. */
export function sameDayIn(from: string, to: string, dueAt: string): string {
  const { year, month, day } = wallTimeAt(from, new Date(dueAt));
  return instantOf(to, { year, month, day, hour: 0, minute: 0 }).toISOString();
}

/** The first instant after an all-day due's day has ended in `zone` (00:00 of the next day): overdue from then on. */
export function endOfAllDay(zone: string, dueAt: string): Date {
  const { year, month, day } = wallTimeAt(zone, new Date(dueAt));
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return instantOf(zone, { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0 });
}
