import rrule from 'rrule';

// rrule is CommonJS: Node's ES loader gives its exports as the default export (dist/cli runs unbundled).
const { RRule } = rrule;
import { addDays, instantOf, wallTimeAt, type WallTime } from '../../lib/dates/zoned-time.js';

/** A rule without a time is all-day: each occurrence is due on its day, stored as 00:00 local (contract "All-day dates"). */
const MIDNIGHT = { hour: 0, minute: 0 };
/** More than a year's worth of days: every rule quick add writes has an occurrence within it. */
const LOOK_AHEAD_DAYS = 400;

/** A wall time as the UTC instant with the same digits: rrule counts in this "floating" time. */
const floating = (w: WallTime): Date => new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute));
const wallOf = (d: Date): WallTime => ({
  year: d.getUTCFullYear(),
  month: d.getUTCMonth() + 1,
  day: d.getUTCDate(),
  hour: d.getUTCHours(),
  minute: d.getUTCMinutes(),
});

export interface FirstOccurrence {
  at: Date;
  /** The rule named no time: the item is all-day, due at 00:00 local of `at`'s day. */
  allDay: boolean;
}

/**
 * The first occurrence of a rule on the user's wall clock, counted from today: at `time`, the first
 * one after `now`; without a time (all-day), the first day from today on, today included when the
 * rule matches it. rrule iterates wall times written as UTC (no zone, so no daylight-saving jumps)
 * and each one is then placed in the zone: 09:00 stays 09:00 across a change (decision 0037).
 */
export function firstOccurrence(rule: string, zone: string, now: Date, time: { hour: number; minute: number } | null): FirstOccurrence | null {
  const today = { ...wallTimeAt(zone, now), ...(time ?? MIDNIGHT) };
  // An all-day occurrence counts while its day lasts: from today's 00:00 on.
  const from = time === null ? instantOf(zone, today) : now;
  // INTERVAL spaces occurrences apart; it does not delay the first ("every 3 days" starts at the next nine o'clock).
  const rrule = new RRule({ ...RRule.parseString(rule), interval: 1, dtstart: floating(today) });
  const until = floating(addDays(today, LOOK_AHEAD_DAYS));
  // The floating "now" can be a day off the real one; the loop checks each candidate's real instant.
  let candidate = rrule.after(floating(addDays(today, -1)), true);
  while (candidate && candidate <= until) {
    const at = instantOf(zone, wallOf(candidate));
    if (time === null ? at.getTime() >= from.getTime() : at.getTime() > from.getTime()) return { at, allDay: time === null };
    candidate = rrule.after(candidate, false);
  }
  return null;
}
