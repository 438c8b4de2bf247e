import type { ParsedResult } from 'chrono-node';
import { parserForZone, TAG_EOD } from '../../lib/dates/date-parsers.js';
import { findDueDate } from '../../lib/dates/due-date.js';
import { normalizeForDates } from '../../lib/dates/normalize.js';
import { instantOf, offsetMinutesAt, wallTimeAt } from '../../lib/dates/zoned-time.js';
import type { DateReading } from './language/resolve.js';

/*
 * The D of `due: D`, read by quick add's own reader (findDueDate), so `friday`, `dec 24`, `tonight`
 * and `eod` mean in a filter what they mean in a capture. Two things that reader does not say are
 * added here (decision 0072):
 * - whether the phrase names a time of day: without one, D is a local day (contract "All-day dates");
 * - the past: quick add refuses `yesterday`, `-1 week` or `2026-11-01` as deadlines, a filter needs
 *   them, so a phrase the reader calls "about the past" is taken as chrono read it, in the user's zone.
 * The whole phrase must be a date: `due: friday blah` is refused, not read as `friday`.
 */

/** Chrono's tags for a part of the day: a time, though no hour is written ("tonight", "tomorrow morning"). */
const TIME_TAGS = [
  'result/relativeDateAndTime',
  TAG_EOD,
  'casualReference/morning',
  'casualReference/afternoon',
  'casualReference/evening',
  'casualReference/tonight',
  'casualReference/noon',
  'casualReference/now',
];
/** Words that may stand beside a date without being one ("on friday", "by the 15th"). */
const CONNECTORS = new Set(['on', 'at', 'by', 'the', 'of']);

const hasTime = (r: ParsedResult): boolean => r.start.isCertain('hour') || TIME_TAGS.some((tag) => r.tags().has(tag));

/** True when nothing but connectors and punctuation is left once the results are cut out. */
function coversAll(text: string, results: readonly ParsedResult[]): boolean {
  let rest = text;
  for (const r of results) rest = rest.slice(0, r.index) + ' '.repeat(r.text.length) + rest.slice(r.index + r.text.length);
  return (rest.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).every((word) => CONNECTORS.has(word));
}

/** How a past phrase reads: chrono's date components as a local day, or its instant when it has a time. */
function readPast(r: ParsedResult, zone: string): DateReading {
  const s = r.start;
  const day = { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
  if (!hasTime(r)) return { kind: 'day', day };
  if (r.tags().has('result/relativeDateAndTime')) return { kind: 'instant', at: s.date() };
  // From the wall clock, not chrono's fixed offset: "yesterday 5pm" across a DST change is still 17:00 local.
  return { kind: 'instant', at: instantOf(zone, { ...day, hour: s.get('hour') ?? 0, minute: s.get('minute') ?? 0 }) };
}

/** An instant with its offset, as the API writes them: exact, whatever the user's zone (the reader would take its wall clock). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** A filter's D in the user's zone at `now`: a local day, an instant, or null when it is not (only) a date. */
export function readFilterDate(phrase: string, now: Date, zone: string): DateReading | null {
  if (ISO_INSTANT.test(phrase)) {
    const at = new Date(phrase);
    return Number.isNaN(at.getTime()) ? null : { kind: 'instant', at };
  }
  const text = normalizeForDates(phrase).text;
  const results = parserForZone(zone).parse(text, { instant: now, timezone: offsetMinutesAt(zone, now) });
  if (results.length === 0 || !coversAll(text, results)) return null;
  const timed = results.some(hasTime);
  const finding = findDueDate(phrase, now, zone);
  if (finding.dueAt) {
    if (timed) return { kind: 'instant', at: finding.dueAt };
    const wall = wallTimeAt(zone, finding.dueAt);
    return { kind: 'day', day: { year: wall.year, month: wall.month, day: wall.day } };
  }
  return finding.aboutPast && results.length === 1 ? readPast(results[0]!, zone) : null;
}
