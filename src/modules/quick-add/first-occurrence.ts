import rrule from 'rrule';

// rrule is CommonJS: Node's ES loader gives its exports as the default export (dist/cli runs unbundled).
const { RRule } = rrule;
import { addDays, instantOf, wallTimeAt, type WallTime } from '../../lib/dates/zoned-time.js';

/** A day without a time is due at nine, as the organizer reads it. */
const DEFAULT_TIME = { hour: 9, minute: 0 };
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

/**
 * The first occurrence of a rule after `now`, at `time` (09:00 when none) on the user's wall clock,
 * counted from today. rrule iterates wall times written as UTC (no zone, so no daylight-saving jumps)
 * and each one is then placed in the zone: 09:00 stays 09:00 across a change (decision 0037).
 */
export function firstOccurrence(rule: string, zone: string, now: Date, time: { hour: number; minute: number } | null): Date | null {
  const today = { ...wallTimeAt(zone, now), ...(time ?? DEFAULT_TIME) };
  // INTERVAL spaces occurrences apart; it does not delay the first ("every 3 days" starts at the next nine o'clock).
  const rrule = new RRule({ ...RRule.parseString(rule), interval: 1, dtstart: floating(today) });
  const until = floating(addDays(today, LOOK_AHEAD_DAYS));
  // The floating "now" can be a day off the real one; the loop checks each candidate's real instant.
  let candidate = rrule.after(floating(addDays(today, -1)), true);
  while (candidate && candidate <= until) {
    const at = instantOf(zone, wallOf(candidate));
    if (at.getTime() > now.getTime()) return at;
    candidate = rrule.after(candidate, false);
  }
  return null;
}
