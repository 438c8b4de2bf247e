import { compareDays, instantOf, wallTimeAt, type WallTime } from '../lib/dates/zoned-time.js';
import { dateFormat } from './date-formats.js';

/** How the pages show dates: in the user's zone, formatted in the browser's locale. */
export interface DateContext {
  zone: string;
  locale: string;
  now: Date;
}

export interface DueLabel {
  /** "today 17:00", "tomorrow 09:30", "Fri 17:00", "Fri 28 Nov, 17:00", "overdue 2 days". */
  text: string;
  /** The full date and time, for a tooltip and screen readers. */
  full: string;
  overdue: boolean;
}

const DAY_MS = 86_400_000;

/**
 * A time of day the way the locale writes it: "17:00" or "09:30" in a 24-hour locale, "5 PM" or
 * "9:30 AM" in a 12-hour one (no padded hour; whole hours drop their ":00").
 */
function formatTimeOfDay(at: Date, c: Pick<DateContext, 'locale' | 'zone'>): string {
  const hourOnly = dateFormat(c.locale, c.zone, { hour: 'numeric' });
  const cycle = hourOnly.resolvedOptions().hourCycle;
  const twelve = cycle === 'h12' || cycle === 'h11';
  if (twelve && wallTimeAt(c.zone, at).minute === 0) return hourOnly.format(at);
  // A 24-hour clock keeps its two-digit hour ("09:30", "00:15"); a 12-hour one drops the padding ("9:30 AM").
  return dateFormat(c.locale, c.zone, { hour: twelve ? 'numeric' : '2-digit', minute: '2-digit' }).format(at);
}

const time = (c: DateContext, at: Date) => formatTimeOfDay(at, c);

/** The instant a day starts in the zone, `offset` days from today's. */
export function dayStart(c: Pick<DateContext, 'zone' | 'now'>, offset: number): Date {
  const today = wallTimeAt(c.zone, c.now);
  const day = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
  return instantOf(c.zone, { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: 0, minute: 0 });
}

/** A day heading: "Today", "Tomorrow", then "Friday 28 November" in the locale's order. */
export function dayHeading(start: Date, offset: number, c: DateContext): string {
  if (offset === 0) return 'Today';
  if (offset === 1) return 'Tomorrow';
  return dateFormat(c.locale, c.zone, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(start.getTime() + 12 * 3_600_000));
}

/** "Fri 28 Nov, 17:00" in the locale's order; the year only when it is not this year's; an all-day due without its 00:00. */
export function formatDueAbsolute(iso: string, c: DateContext, allDay = false): string {
  const at = new Date(iso);
  if (allDay) return formatDay(at, c);
  const sameYear = wallTimeAt(c.zone, at).year === wallTimeAt(c.zone, c.now).year;
  const day = dateFormat(c.locale, c.zone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(at);
  return `${day}, ${formatTimeOfDay(at, c)}`;
}

/**
 * A moment of the past or future on a settings page (a key's last use, a browser's sign-in): the
 * locale's date with the year, and the time of day as every other page writes it.
 */
export function formatMoment(iso: string, c: Pick<DateContext, 'locale' | 'zone'>): string {
  const at = new Date(iso);
  const day = dateFormat(c.locale, c.zone, { day: 'numeric', month: 'short', year: 'numeric' }).format(at);
  return `${day}, ${formatTimeOfDay(at, c)}`;
}

/** "Fri 28 Nov" (the year only when it is not this year's): an all-day due, which has no time. */
function formatDay(at: Date, c: DateContext): string {
  const sameYear = wallTimeAt(c.zone, at).year === wallTimeAt(c.zone, c.now).year;
  return dateFormat(c.locale, c.zone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(at);
}

/**
 * Overdue as the contract counts it: a timed item once its instant has passed, an all-day item only
 * once its day has ended in the user's zone (due today is not overdue, all day long). An all-day
 * day has ended exactly when the item is due before today's first instant, so a page testing its
 * few hundred rows reads the zone once, not per row.
 */
export function overdueTest(c: Pick<DateContext, 'zone' | 'now'>): (item: { due_at: string | null; all_day: boolean }) => boolean {
  const now = c.now.getTime();
  const todayStart = dayStart(c, 0).getTime();
  return (item) => item.due_at !== null && Date.parse(item.due_at) < (item.all_day ? todayStart : now);
}

export function isOverdue(item: { due_at: string | null; all_day: boolean }, c: Pick<DateContext, 'zone' | 'now'>): boolean {
  return overdueTest(c)(item);
}

/** An all-day due: the date only ("today", "tomorrow", "Fri", "Fri 28 Nov", "overdue 2 days"). */
function allDayLabel(at: Date, days: number, c: DateContext): DueLabel {
  const full = `${dateFormat(c.locale, c.zone, { dateStyle: 'full' }).format(at)}, all day`;
  const overdue = days < 0;
  let text: string;
  if (overdue) text = `overdue ${-days} day${days === -1 ? '' : 's'}`;
  else if (days === 0) text = 'today';
  else if (days === 1) text = 'tomorrow';
  else if (days < 7) text = dateFormat(c.locale, c.zone, { weekday: 'short' }).format(at);
  else text = formatDay(at, c);
  return { text, full, overdue };
}

/** A due date as a person scanning a list wants it: relative when near, highlighted when past; an all-day one shows its date only. */
export function dueLabel(iso: string, c: DateContext, allDay = false): DueLabel {
  const at = new Date(iso);
  const days = compareDays(wallTimeAt(c.zone, at), wallTimeAt(c.zone, c.now)) / DAY_MS;
  if (allDay) return allDayLabel(at, days, c);
  const full = `${dateFormat(c.locale, c.zone, { dateStyle: 'full' }).format(at)}, ${formatTimeOfDay(at, c)}`;
  const overdue = at.getTime() < c.now.getTime();
  let text: string;
  if (overdue && days < 0) text = `overdue ${-days} day${days === -1 ? '' : 's'}`;
  else if (overdue) text = `overdue, today ${time(c, at)}`;
  else if (days === 0) text = `today ${time(c, at)}`;
  else if (days === 1) text = `tomorrow ${time(c, at)}`;
  else if (days < 7) text = `${dateFormat(c.locale, c.zone, { weekday: 'short' }).format(at)} ${time(c, at)}`;
  else text = formatDueAbsolute(iso, c);
  return { text, full, overdue };
}

/** The value of `<input type="date">` and `<input type="time">` for an instant in the zone; an all-day due has no time. */
export function dueInputs(iso: string | null, zone: string, allDay = false): { date: string; time: string } {
  if (!iso) return { date: '', time: '' };
  const w = wallTimeAt(zone, new Date(iso));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return { date: `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`, time: allDay ? '' : `${pad(w.hour)}:${pad(w.minute)}` };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::\d{2})?$/;

/**
 * The instant a date and time typed in the user's zone name; a date without a time is all-day
 * (00:00 of that day, all_day true), like the organizer's "tomorrow" (contract "All-day dates").
 * Null for no date; an error message for a date or time that does not exist.
 */
export function parseDueInputs(date: string, timeOfDay: string, zone: string): { iso: string | null; allDay: boolean } | { error: string } {
  const d = DATE.exec(date.trim());
  const t = TIME.exec(timeOfDay.trim());
  if (date.trim() === '') return timeOfDay.trim() === '' ? { iso: null, allDay: false } : { error: 'Choose a date for this time.' };
  if (!d) return { error: 'Enter the date as YYYY-MM-DD.' };
  if (timeOfDay.trim() !== '' && !t) return { error: 'Enter the time as HH:MM.' };
  const wall: WallTime = { year: Number(d[1]), month: Number(d[2]), day: Number(d[3]), hour: t ? Number(t[1]) : 0, minute: t ? Number(t[2]) : 0 };
  const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  if (wall.year < 1970 || wall.year > 9999 || check.getUTCMonth() !== wall.month - 1 || check.getUTCDate() !== wall.day)
    return { error: 'That date does not exist.' };
  if (wall.hour > 23 || wall.minute > 59) return { error: 'That time does not exist.' };
  return { iso: instantOf(zone, wall).toISOString(), allDay: !t };
}

/** The browser's preferred locale from Accept-Language, when Intl knows it; else British English. */
export function localeFrom(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 10)) {
    const tag = part.split(';')[0]!.trim();
    if (!tag || tag === '*' || tag.length > 35) continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // Not a well-formed tag: try the next one.
    }
  }
  return 'en-GB';
}
