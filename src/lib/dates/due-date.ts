import type { Component, ParsedResult } from 'chrono-node';
import { parserForZone, TAG_EOD, TAG_ORDINAL_DAY } from './date-parsers.js';
import { normalizeForDates } from './normalize.js';
import { addDays, compareDays, instantOf, offsetMinutesAt, wallTimeAt, weekdayOf, type WallTime } from './zoned-time.js';

export interface DueDateFinding {
  /** The due instant, or null when the text names none (or only dates in the past); 00:00 local of the day when allDay. */
  dueAt: Date | null;
  /** The text names a day without a time of day ("tomorrow", "dec 24"): due on that day, not at a time. */
  allDay: boolean;
  /** The title with the date phrase cut out; as given when there is no due date. */
  title: string;
  /** A date phrase was found, but it speaks of the past ("notes from tuesday's meeting"). */
  aboutPast: boolean;
  /** Where the phrases read as the due date sit in the text as given ([start, end), UTF-16), in order; empty without a due date. */
  phrases: [number, number][];
}

/** An all-day due is stored as 00:00 of its day in the user's zone (contract "All-day dates"). */
const MIDNIGHT = { hour: 0, minute: 0 };
const EOD = { hour: 17, minute: 0 };
const TONIGHT = { hour: 20, minute: 0 };
const PART_OF_DAY: Record<string, { hour: number; minute: number }> = {
  'casualReference/morning': { hour: 9, minute: 0 },
  'casualReference/afternoon': { hour: 15, minute: 0 },
  'casualReference/evening': TONIGHT,
  'casualReference/tonight': TONIGHT,
  'casualReference/noon': { hour: 12, minute: 0 },
};

/** A bare month ("May") is a date only after one of these; otherwise it is likely a name. */
const MONTH_LEADS = new Set(['in', 'by', 'until', 'till', 'before', 'during', 'early', 'mid', 'late', 'end', 'this', 'next', 'of', 'since']);
/** Weekday and month abbreviations that are also everyday words ("I sat down", "the sun", "got wed"). */
const WORDLIKE = new Set(['sat', 'sun', 'wed', 'mar', 'may', 'jan', 'june', 'august', 'march', 'second', 'sec']);
/** Leads that make a wordlike abbreviation a date after all. */
const DATE_LEADS = new Set(['on', 'by', 'due', 'until', 'till', 'before', 'this', 'next', 'every', 'in', 'coming']);
/** Phrases that make a sentence a record of the past ("notes from …", "Bob said on monday …"). */
const PAST_SENTENCE = new RegExp(
  '\\b(?:(?:notes?|minutes|recap|summary|debrief|takeaways?|retro|photos?|pics)\\s+(?:from|of)|' +
    'was|were|had|went|said|told|discussed|decided|happened|talked|spoke|mentioned|agreed|met|saw|heard|learned|learnt|' +
    'gave|came|finished|received|bought|paid|called|emailed|sent|felt|lost|broke|dropped|moved|rejected|tried|did|ran|' +
    'forgot|missed|noticed|realized|realised|enjoyed|loved|liked|hated|won|started|ended)\\b',
  'i',
);
/** Leads after which a date in a past-tense sentence is still a deadline ("for", "by"). */
const FUTURE_LEADS = new Set(['for', 'by', 'until', 'till', 'before', 'due']);
const LEADING_PREPOSITION = /^(on|at|by|in|from|since|during|for|due)\s+/;
const EXPLICIT_TODAY = /\b(?:today|tonight|this (?:morning|afternoon|evening))\b/;

/** What the readings need of a chrono result (a result, or a day and a time joined). */
interface Phrase {
  text: string;
  index: number;
  tags(): Set<string>;
  start: { isCertain(c: Component): boolean; get(c: Component): number | null; date(): Date };
}

type Reading = { kind: 'due'; at: Date; allDay: boolean } | { kind: 'past' } | { kind: 'none' };

interface Context {
  now: Date;
  zone: string;
  today: WallTime;
  text: string;
  pastSentence: boolean;
}

/** Hours 1..6 without am/pm are afternoon hours in a to-do ("call at 3" is 15:00). */
function timeOf(r: Phrase, tags: Set<string>, rt: string): { hour: number; minute: number } | null {
  const s = r.start;
  if (tags.has(TAG_EOD)) return EOD;
  if (s.isCertain('hour')) {
    let hour = s.get('hour') ?? 0;
    if (!s.isCertain('meridiem') && hour >= 1 && hour <= 6 && !/\d:\d\d/.test(rt)) hour += 12;
    if (!s.isCertain('meridiem') && hour >= 1 && hour < 12 && /\b(?:tonight|evening|night)\b/.test(rt)) hour += 12;
    return { hour: hour % 24, minute: s.get('minute') ?? 0 };
  }
  for (const [tag, time] of Object.entries(PART_OF_DAY)) if (tags.has(tag)) return time;
  return null;
}

function nextWeekday(from: WallTime, weekday: number, includeToday: boolean): WallTime {
  let days = (weekday - weekdayOf(from) + 7) % 7;
  if (days === 0 && !includeToday) days = 7;
  return addDays(from, days);
}

/** Monday of the week after the one `day` is in (weeks start on Monday). */
function mondayOfNextWeek(day: WallTime): WallTime {
  return addDays(day, 7 - ((weekdayOf(day) + 6) % 7));
}

function read(r: Phrase, ctx: Context): Reading {
  const s = r.start;
  const tags = r.tags();
  const rt = r.text.toLowerCase().trim();
  const before = ctx.text.slice(0, r.index);
  const after = ctx.text.slice(r.index + r.text.length);
  const lead = LEADING_PREPOSITION.exec(rt)?.[1] ?? /([a-z]+)\W*$/i.exec(before)?.[1]?.toLowerCase() ?? '';
  const core = rt.replace(LEADING_PREPOSITION, '');

  // "tuesday's meeting", "yesterday", "last friday", "3 days ago": a date of the past, not a deadline.
  if (/^['’]s\b/.test(after)) return { kind: 'past' };
  if (/^(?:last|past|previous)\b/.test(core) || /\bago$/.test(core) || /\byesterday\b/.test(core)) return { kind: 'past' };
  // "I sat down", "pizza night": words that are dates only with a lead, at the very end, or before a time.
  const endsText = /^\W*$/.test(after);
  const timeFollows = /^\s*(?:at\s+)?\d{1,2}(?::\d\d)?\s*(?:am|pm)?\b/i.test(after);
  if (WORDLIKE.has(core) && !DATE_LEADS.has(lead) && !endsText && !timeFollows) return { kind: 'none' };
  if (core === 'night' && lead !== 'at') return { kind: 'none' };
  // "Watch Friday Night Lights": a capitalized date phrase run on into another capitalized word is a name.
  if (/^[A-Z][a-z]/.test(r.text.trim()) && /^\s+[A-Z][a-z]/.test(after)) return { kind: 'none' };
  // A duration is a date only when anchored to now: "in 15 min", "2 weeks from now", not "15 min after the run".
  const anchored = /^(?:in|within)\b/.test(rt) || /\b(?:from now|later)\b/.test(core);
  if (tags.has('result/relativeDate') && /^\d|^an?\s/.test(core) && !anchored) return { kind: 'none' };
  const relative = tags.has('result/relativeDate');
  const monthOnly = s.isCertain('month') && !s.isCertain('day') && !s.isCertain('weekday') && !relative;
  if (monthOnly && !MONTH_LEADS.has(lead)) return { kind: 'none' };
  const futureWord = /^(?:tomorrow|today|tonight|next|this|coming|in\b)/.test(core);
  if ((lead === 'from' || lead === 'since') && !futureWord) return { kind: 'past' };
  if (ctx.pastSentence && !futureWord && !FUTURE_LEADS.has(lead) && !relative) return { kind: 'past' };

  // "in 2 hours": from now, to the minute; chrono counted it on the reference instant.
  if (tags.has('result/relativeDateAndTime')) return { kind: 'due', at: s.date(), allDay: false };

  const time = timeOf(r, tags, rt);
  let day: WallTime;
  let mayBeEarlierToday = false;
  if (/\bnext week$/.test(core)) day = mondayOfNextWeek(ctx.today);
  else if (/\bnext weekend$/.test(core)) day = addDays(mondayOfNextWeek(ctx.today), 5);
  else if (/\bweekend$/.test(core)) {
    // "this weekend" on a Saturday or a Sunday is today: the text names the weekend the user is in.
    day = weekdayOf(ctx.today) === 0 && !/\bnext\b/.test(core) ? ctx.today : nextWeekday(ctx.today, 6, true);
    mayBeEarlierToday = true;
  } else if (/^next month$/.test(core)) {
    const d = new Date(Date.UTC(ctx.today.year, ctx.today.month, 1));
    day = { ...ctx.today, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: 1 };
  } else if (s.isCertain('day')) {
    day = { ...ctx.today, year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
    if (compareDays(day, ctx.today) < 0) {
      if (s.isCertain('year') || tags.has('result/relativeDate')) return { kind: 'past' };
      // A date without a year is the next one; a bare "the 3rd" is the next 3rd of a month.
      if (s.isCertain('month') || !tags.has(TAG_ORDINAL_DAY)) day = { ...day, year: day.year + 1 };
      else {
        const d = new Date(Date.UTC(day.year, day.month, day.day));
        day = { ...day, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
      }
    }
    // The text names this day, so an earlier hour of it is what was asked for ("today 3pm").
    mayBeEarlierToday = true;
  } else if (s.isCertain('weekday')) {
    const weekday = s.get('weekday')!;
    if (/^next\b/.test(core)) day = addDays(mondayOfNextWeek(ctx.today), (weekday + 6) % 7);
    else {
      // The next occurrence: with a time, today's still counts while that time is ahead ("wed 7pm" on a Wednesday
      // afternoon); a bare weekday is a day after today ("friday" said on a Friday is next week's).
      const todayCounts =
        /^(?:this|coming)\b/.test(core) || (time !== null && weekdayOf(ctx.today) === weekday && instantOf(ctx.zone, { ...ctx.today, ...time }) > ctx.now);
      day = nextWeekday(ctx.today, weekday, todayCounts);
    }
  } else if (monthOnly) {
    const month = s.get('month')!;
    if (month === ctx.today.month && !s.isCertain('year')) return { kind: 'none' };
    const year = s.isCertain('year') ? s.get('year')! : month > ctx.today.month ? ctx.today.year : ctx.today.year + 1;
    day = { ...ctx.today, year, month, day: 1 };
  } else if (time) {
    day = ctx.today;
    const at = instantOf(ctx.zone, { ...day, ...time });
    if (at.getTime() < ctx.now.getTime()) {
      if (tags.has(TAG_EOD)) mayBeEarlierToday = true;
      else if (EXPLICIT_TODAY.test(core)) return { kind: 'past' };
      // A bare time that has passed today means tomorrow.
      else day = addDays(day, 1);
    }
  } else {
    return { kind: 'none' };
  }

  // A day without a time of day is due on that day (all-day), at 00:00 local; it is past only once the day is.
  if (time === null) {
    if (compareDays(day, ctx.today) < 0) return { kind: 'past' };
    return { kind: 'due', at: instantOf(ctx.zone, { ...day, ...MIDNIGHT }), allDay: true };
  }
  const at = instantOf(ctx.zone, { ...day, ...time });
  if (at.getTime() < ctx.now.getTime() && !mayBeEarlierToday) return { kind: 'past' };
  return { kind: 'due', at, allDay: false };
}

/** Words that introduce a date and go with it when it is cut from the title. */
const CONNECTOR_BEFORE = /(?:^|\s)(?:due(?:\s+(?:on|by|date))?|by|on|at|in|before|until|till|for|this|@|-)\s*$/i;
/**
 * Words that may follow a date phrase that ends a clause ("by friday for Ana", "on monday with Bob").
 * Any other word after it means the date is used as a modifier inside the sentence ("for Monday
 * meeting"): its connector then belongs to the sentence and stays (issue 47 item 7).
 */
const CLAUSE_AFTER = new Set(
  'with for to and or about at in on from re regarding then but so please pls because after before if when unless via per as'.split(' '),
);

/** The range cut from the title for a date phrase at [start, end): the phrase, with its connectors when it ends a clause. */
function cutRange(title: string, start: number, end: number): [number, number] {
  const next = /^\s*([\p{L}\p{N}]+)/u.exec(title.slice(end))?.[1]?.toLowerCase();
  if (next !== undefined && !CLAUSE_AFTER.has(next)) return [start, end];
  let from = start;
  for (let i = 0; i < 2; i += 1) {
    const m = CONNECTOR_BEFORE.exec(title.slice(0, from));
    if (!m) break;
    from = m.index + (m[0].startsWith(' ') ? 1 : 0);
  }
  return [from, end];
}

/**
 * The title without [from, end): quick add highlights exactly this range, so nothing but it (and the
 * spaces and dangling punctuation around it) leaves the title (issue 47 item 7).
 */
function cut(title: string, from: number, end: number): string {
  const rest = `${title.slice(0, from)} ${title.slice(end)}`
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .replace(/^[\s,;:\-–—]+|[\s,;:\-–—]+$/g, '')
    .trim();
  return rest === '' ? title : rest;
}

const isTimeOnly = (r: ParsedResult): boolean =>
  r.start.isCertain('hour') && !r.start.isCertain('day') && !r.start.isCertain('weekday') && !r.tags().has('result/relativeDate');
const isDayOnly = (r: ParsedResult): boolean =>
  (r.start.isCertain('day') || r.start.isCertain('weekday')) && !r.start.isCertain('hour') && !r.tags().has('result/relativeDateAndTime');

/** The day of one result with the time of another, as chrono would have read them side by side. */
function joinTime(day: ParsedResult, time: ParsedResult): Phrase {
  const fromTime = (c: Component) => c === 'hour' || c === 'minute' || c === 'meridiem';
  return {
    text: day.text,
    index: day.index,
    tags: () => day.tags(),
    start: {
      isCertain: (c) => (fromTime(c) ? time.start.isCertain(c) : day.start.isCertain(c)),
      get: (c) => (fromTime(c) ? time.start.get(c) : day.start.get(c)),
      date: () => day.start.date(),
    },
  };
}

/** The due date a title names, read in the user's zone by the contract's rules, and the title without it. */
export function findDueDate(title: string, now: Date, zone: string): DueDateFinding {
  const norm = normalizeForDates(title);
  const results = parserForZone(zone).parse(norm.text, { instant: now, timezone: offsetMinutesAt(zone, now) });
  const ctx: Context = { now, zone, today: wallTimeAt(zone, now), text: norm.text, pastSentence: PAST_SENTENCE.test(norm.text) };
  let aboutPast = false;
  for (const [i, r] of results.entries()) {
    // "sunday long run 8am": a day and a time apart are one moment; chrono only joins them when adjacent.
    const later = results.slice(i + 1).find((t) => isTimeOnly(t));
    const joined = later && isDayOnly(r) ? joinTime(r, later) : undefined;
    const reading = read(joined ?? r, ctx);
    if (reading.kind === 'past') aboutPast = true;
    if (reading.kind !== 'due') continue;
    const span = (x: ParsedResult): [number, number] => [norm.toOriginal[x.index] ?? 0, norm.toOriginal[x.index + x.text.length] ?? title.length];
    let rest = title;
    const phrases: [number, number][] = [];
    // Cut the later phrase first, so the earlier one's positions still hold.
    if (joined && later) {
      const range = cutRange(rest, ...span(later));
      rest = cut(rest, ...range);
      phrases.push(range);
    }
    const range = cutRange(rest, ...span(r));
    phrases.unshift(range);
    return { dueAt: reading.at, allDay: reading.allDay, title: cut(rest, ...range), aboutPast: false, phrases };
  }
  return { dueAt: null, allDay: false, title, aboutPast, phrases: [] };
}
