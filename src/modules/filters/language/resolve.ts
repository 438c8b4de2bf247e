import { addDays, instantOf, offsetMinutesAt, wallTimeAt } from '../../../lib/dates/zoned-time.js';
import type { DateTerm, FilterError, ParsedFilter, Span, Term, Tree } from './ast.js';

/*
 * The second step: the date terms of a parsed filter become instant ranges over `due_at`, read in
 * the user's zone at one `now`. What is left is comparisons a compiler writes as they are, the same
 * on both dialects; no date arithmetic happens in SQL.
 */

/** A calendar date in the user's zone. */
export interface LocalDay {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

/**
 * What a D of `due: D` names: a phrase without a time of day names a local day ("friday", "dec 24"),
 * one with a time names an instant ("friday 5pm", "+4 hours"); null when it is not a date.
 */
export type DateReading = { kind: 'day'; day: LocalDay } | { kind: 'instant'; at: Date };

export interface ResolveContext {
  now: Date;
  /** The user's IANA zone. */
  timezone: string;
  readDate(phrase: string): DateReading | null;
}

/** `due_at` within bounds, each bound present or null: gte ≤ due_at, gt < due_at, due_at < lt. Null `due_at` never matches. */
export interface DueBounds {
  kind: 'due';
  gte: Date | null;
  gt: Date | null;
  lt: Date | null;
  span: Span;
}

/** Not completed, and `due_at` < `timedBefore` for a timed item or < `allDayBefore` (00:00 local today) for an all-day one. */
export interface Overdue {
  kind: 'overdue';
  timedBefore: Date;
  allDayBefore: Date;
  span: Span;
}

export type PlanTerm = Exclude<Term, DateTerm> | DueBounds | Overdue | { kind: 'no date'; span: Span };
export type PlanNode = Tree<PlanTerm>;

export interface FilterPlan {
  tree: PlanNode;
  openOnly: boolean;
}

export type ResolveOutcome = { ok: true; plan: FilterPlan } | { ok: false; error: FilterError };

/** `due: D` with a time names that minute: due_at is stored to the millisecond, people name minutes. */
const MINUTE_MS = 60_000;

class UnreadableDate extends Error {
  constructor(readonly error: FilterError) {
    super(error.message);
  }
}

/**
 * The start of a local day (00:00, or the first instant of a day that skips midnight: instantOf).
 * Each is several Intl.formatToParts calls (lib/dates/zoned-time.ts), which made reading `today |
 * overdue` cost more than its statement (decisions 0087, 0094); a zone's day starts never change,
 * so they are kept, a bounded number of them.
 */
const MAX_CACHED_DAYS = 4096;
const dayStarts = new Map<string, number>();

function startOfDay(zone: string, day: LocalDay, plus: number): Date {
  const wall = addDays({ ...day, hour: 0, minute: 0 }, plus);
  const key = `${zone} ${wall.year}-${wall.month}-${wall.day}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = instantOf(zone, wall).getTime();
    if (dayStarts.size >= MAX_CACHED_DAYS) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return new Date(start);
}

/** Per zone, the local day last seen and the instants it spans: reading today's date is then two comparisons. */
const MAX_CACHED_ZONES = 1024;
const currentDays = new Map<string, { from: number; to: number; day: LocalDay }>();

function todayIn(zone: string, now: Date): LocalDay {
  const t = now.getTime();
  const known = currentDays.get(zone);
  if (known && t >= known.from && t < known.to) return known.day;
  const wall = wallTimeAt(zone, now);
  const day = { year: wall.year, month: wall.month, day: wall.day };
  const from = startOfDay(zone, day, 0).getTime();
  const to = startOfDay(zone, day, 1).getTime();
  // Kept only for a day whose clock runs straight through (the same offset at both ends: no DST
  // change inside it), so every instant in [from, to) reads as this date; a change day is read each time.
  if (t >= from && t < to && offsetMinutesAt(zone, new Date(from)) === offsetMinutesAt(zone, new Date(to - 1))) {
    if (currentDays.size >= MAX_CACHED_ZONES) currentDays.clear();
    currentDays.set(zone, { from, to, day });
  }
  return day;
}

/** Today's date and day starts in the query's zone at its `now`. */
interface DayClock {
  today: LocalDay;
  startOf(day: LocalDay, plus?: number): Date;
}

function dayClock(ctx: ResolveContext): DayClock {
  return { today: todayIn(ctx.timezone, ctx.now), startOf: (day, plus = 0) => startOfDay(ctx.timezone, day, plus) };
}

function resolveDate(term: DateTerm, ctx: ResolveContext, clock: DayClock): PlanTerm {
  const { today, startOf } = clock;
  /** From the start of day + `from` to the start of day + `to`: whole local days, however long DST makes them. */
  const days = (day: LocalDay, from: number, to: number): DueBounds => ({
    kind: 'due',
    gte: startOf(day, from),
    gt: null,
    lt: startOf(day, to),
    span: term.span,
  });
  switch (term.date) {
    case 'today':
      return days(today, 0, 1);
    case 'tomorrow':
      return days(today, 1, 2);
    case 'yesterday':
      return days(today, -1, 0);
    case 'days':
      return days(today, 0, term.days);
    case 'overdue':
      return { kind: 'overdue', timedBefore: ctx.now, allDayBefore: startOf(today), span: term.span };
    case 'no date':
      return { kind: 'no date', span: term.span };
    default: {
      const reading = ctx.readDate(term.phrase);
      if (!reading) throw new UnreadableDate({ message: `cannot read "${term.phrase}" as a date`, position: term.phraseSpan.start });
      const bounds = (gte: Date | null, gt: Date | null, lt: Date | null): DueBounds => ({ kind: 'due', gte, gt, lt, span: term.span });
      if (reading.kind === 'day') {
        // A day: due on it, before it starts, after it ends.
        if (term.date === 'due') return days(reading.day, 0, 1);
        return term.date === 'due before' ? bounds(null, null, startOf(reading.day)) : bounds(startOf(reading.day, 1), null, null);
      }
      // An instant: that minute, or strictly before or after it.
      if (term.date === 'due') return bounds(reading.at, null, new Date(reading.at.getTime() + MINUTE_MS));
      return term.date === 'due before' ? bounds(null, null, reading.at) : bounds(null, reading.at, null);
    }
  }
}

function resolveNode(node: Tree<Term>, ctx: ResolveContext, clock: DayClock): PlanNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, operands: node.operands.map((o) => resolveNode(o, ctx, clock)) };
    case 'not':
      return { kind: 'not', operand: resolveNode(node.operand, ctx, clock), span: node.span };
    case 'date':
      return resolveDate(node, ctx, clock);
    default:
      return node;
  }
}

/** The plan of a parsed filter at `ctx.now` in `ctx.timezone`, or the first D that is not a date, with its position. */
export function resolveFilter(filter: ParsedFilter, ctx: ResolveContext): ResolveOutcome {
  try {
    return { ok: true, plan: { tree: resolveNode(filter.tree, ctx, dayClock(ctx)), openOnly: filter.openOnly } };
  } catch (err) {
    if (err instanceof UnreadableDate) return { ok: false, error: err.error };
    throw err;
  }
}
