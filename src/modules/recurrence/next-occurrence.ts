import rrule from 'rrule';

// rrule is CommonJS: Node's ES loader gives its exports as the default export (dist/cli runs unbundled).
const { RRule } = rrule;
import { instantOf, wallTimeAt, type WallTime } from '../../lib/dates/zoned-time.js';
import type { Recurrence } from '../items/item-view.js';
import { untilInstant } from './rule-until.js';

/** rrule counts in "floating" time: a wall time written as the UTC instant with the same digits (as quick add's first-occurrence.ts). */
const floating = (w: WallTime): Date => new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute));
const wallOf = (d: Date): WallTime => ({
  year: d.getUTCFullYear(),
  month: d.getUTCMonth() + 1,
  day: d.getUTCDate(),
  hour: d.getUTCHours(),
  minute: d.getUTCMinutes(),
});
/**
 * Wall times here are whole minutes (as today's zone offsets are), so the due date's seconds and
 * milliseconds (timestamps carry milliseconds, contract) are carried over to each occurrence as is:
 * 00:44:14 every 2 days stays 00:44:14.
 */
const subMinute = (d: Date): number => ((d.getTime() % 60_000) + 60_000) % 60_000;
/** Bounded: a rule whose next occurrence is further than this many candidates away has none (never loops for ever). */
const MAX_CANDIDATES = 1000;

export interface OccurrenceInput {
  recurrence: Recurrence;
  zone: string;
  /** The due date of the occurrence being completed. */
  due: Date;
  completedAt: Date;
  /** Occurrences completed so far, this one included (COUNT counts them). */
  completed: number;
}

/**
 * The next occurrence after completing one, or null when the rule has ended (COUNT or UNTIL).
 * Occurrences keep the due date's wall-clock time in the user's zone, so 09:00 stays 09:00 across
 * daylight-saving changes: rrule iterates floating wall times and each is placed in the zone.
 * `from: due` follows the previous due date; `from: completion` starts again from the day of completion.
 */
export function nextOccurrence(o: OccurrenceInput): Date | null {
  const options = RRule.parseString(o.recurrence.rule);
  if (options.count != null && o.completed >= options.count) return null;
  const until = untilInstant(o.recurrence.rule, o.zone);
  const dueWall = wallTimeAt(o.zone, o.due);
  const anchor: WallTime = o.recurrence.from === 'due' ? dueWall : { ...wallTimeAt(o.zone, o.completedAt), hour: dueWall.hour, minute: dueWall.minute };
  const base = o.recurrence.from === 'due' ? o.due : o.completedAt;
  const rule = new RRule({ ...options, count: null, until: null, dtstart: floating(anchor) });
  const seconds = subMinute(o.due);
  let candidate = rule.after(floating(anchor), false);
  for (let i = 0; candidate && i < MAX_CANDIDATES; i += 1) {
    const at = new Date(instantOf(o.zone, wallOf(candidate)).getTime() + seconds);
    if (until && at.getTime() > until.getTime()) return null;
    if (at.getTime() > base.getTime()) return at;
    candidate = rule.after(candidate, false);
  }
  return null;
}
