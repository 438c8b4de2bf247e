import { toTimestamp } from '../../lib/timestamps.js';
import { splitCapturedText } from '../../lib/capture-text.js';
import { findDueDate } from '../../lib/dates/due-date.js';
import { instantOf, wallTimeAt } from '../../lib/dates/zoned-time.js';
import { firstOccurrence } from './first-occurrence.js';
import { findRecurrenceWords } from './recurrence-words.js';

export type SpanKind = 'project' | 'tag' | 'date' | 'recurrence';

/** One understood piece of the first line: offsets in UTF-16 code units of the text as sent, as the DOM counts. */
export interface Span {
  kind: SpanKind;
  start: number;
  end: number;
  text: string;
  /** The project id, the tag name, the ISO instant or the RRULE. */
  value: string;
}

export interface Recurrence {
  rule: string;
  from: 'due' | 'completion';
}

export interface QuickAdd {
  title: string;
  content_md: string | null;
  due_at: string | null;
  /** The date named a day without a time of day: due_at is 00:00 local of that day (contract "All-day dates"). */
  all_day: boolean;
  project_id: string | null;
  tags: string[];
  recurrence: Recurrence | null;
  spans: Span[];
}

export interface GrammarContext {
  now: Date;
  /** The user's IANA zone. */
  zone: string;
  projects: readonly { id: string; name: string }[];
  /**
   * Ranges of the text (UTF-16 offsets, as spans give them) the user refused as readings: their
   * words stay in the title as typed and no reader sees them (decision 0098).
   */
  literal?: readonly (readonly [number, number])[];
}

/** As PATCH takes them: an item has at most 20 tags of at most 50 characters, without commas. */
const MAX_TAGS = 20;
const TAG_NAME_MAX = 50;

/** `#"Two words"` or `#Name` at a word start (the web's search box reads them too: src/web/search-box.ts). */
export const PROJECT_TOKEN = /(?<![^\s([{])#(?:"([^"\n]+)"|([\p{L}\p{N}_'’&+-]+))/gu;
/** `@tag` at a word start (so not in me@example.com); a trailing dot ends a sentence, not the tag. */
export const TAG_TOKEN = /(?<![^\s([{])@([\p{L}\p{N}_\-./]+)/gu;
/** "@5pm" and "@ 9" are times for the date reader, not tags. */
export const TIME_LIKE = /^\d{1,2}(?::\d\d)?(?:am|pm|a|p)?$/i;

/** Matching key of a project name: case and spaces ignored, so `#sideproject` finds "Side project". */
export const projectKey = (name: string): string => name.toLowerCase().replace(/\s+/gu, '');

/** Blanks out [start, end) so later readers cannot see it while every offset still holds. */
const blank = (line: string, start: number, end: number): string => line.slice(0, start) + ' '.repeat(end - start) + line.slice(end);

const tidy = (title: string): string =>
  title
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();

/**
 * The pieces of [start, end) outside the tokens already read, trimmed: the date reader may read one
 * phrase across a blanked token ("at 3 @work on friday"), and spans never overlap.
 */
function around(line: string, start: number, end: number, taken: readonly (readonly [number, number])[]): [number, number][] {
  const pieces: [number, number][] = [];
  let from = start;
  for (const [a, b] of [...taken].sort((x, y) => x[0] - y[0])) {
    if (b <= from || a >= end) continue;
    if (a > from) pieces.push([from, a]);
    from = Math.max(from, b);
  }
  if (from < end) pieces.push([from, end]);
  return pieces
    .map(([a, b]): [number, number] => {
      const piece = line.slice(a, b);
      return [a + piece.length - piece.trimStart().length, b - (piece.length - piece.trimEnd().length)];
    })
    .filter(([a, b]) => b > a);
}

/** What a refused range reads as: a private-use character no reader matches, one per code unit so offsets hold. */
const MASK = '\uE000';

/** The line with the refused ranges (text offsets, `at` where the line starts) masked, and their words in order. */
function maskLiteral(line: string, at: number, literal: GrammarContext['literal']): { read: string; words: string[] } {
  const ranges = (literal ?? [])
    .map(([a, b]) => [Math.max(0, a - at), Math.min(line.length, b - at)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  // Overlapping or touching ranges are one run of the mask, so one word list entry.
  const merged: [number, number][] = [];
  for (const [a, b] of ranges) {
    const last = merged.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  let read = line;
  for (const [a, b] of merged) read = read.slice(0, a) + MASK.repeat(b - a) + read.slice(b);
  return { read, words: merged.map(([a, b]) => line.slice(a, b)) };
}

/** Where the first line (the title as capture splits it) starts in the text and what it is; null when too long to be a title. */
function firstLine(text: string): { at: number; line: string } | null {
  const at = text.search(/\S/);
  if (at < 0) return null;
  const split = splitCapturedText(text);
  const rest = text.slice(at);
  const line = rest.slice(0, rest.search(/\r\n|\r|\n|$/)).trimEnd();
  return line === split.title ? { at, line } : null;
}

/**
 * Quick add: the first line's `#project`, `@tags`, date and recurrence words read into fields, each
 * understood token cut from the title. Deterministic and total: anything not understood stays text.
 */
export function readQuickAdd(text: string, ctx: GrammarContext): QuickAdd {
  const split = splitCapturedText(text);
  const plain: QuickAdd = { ...split, due_at: null, all_day: false, project_id: null, tags: [], recurrence: null, spans: [] };
  const first = firstLine(text);
  if (!first) return plain;
  const { at, line } = first;
  const { read, words: refused } = maskLiteral(line, at, ctx.literal);
  let rest = read;
  const spans: Span[] = [];
  const add = (kind: SpanKind, start: number, end: number, value: string) => {
    spans.push({ kind, start: at + start, end: at + end, text: line.slice(start, end), value });
    rest = blank(rest, start, end);
  };

  let projectId: string | null = null;
  const byKey = new Map(ctx.projects.map((p) => [projectKey(p.name), p.id]));
  for (const m of read.matchAll(PROJECT_TOKEN)) {
    const id = byKey.get(projectKey(m[1] ?? m[2]!));
    // The first project named wins; an unknown name stays in the title (nothing is created).
    if (id === undefined || projectId !== null) continue;
    projectId = id;
    add('project', m.index, m.index + m[0].length, id);
  }

  const tags = new Map<string, string>();
  for (const m of rest.matchAll(TAG_TOKEN)) {
    const name = m[1]!.replace(/[./-]+$/u, '');
    if (name === '' || TIME_LIKE.test(name) || Array.from(name).length > TAG_NAME_MAX) continue;
    if (tags.size >= MAX_TAGS && !tags.has(name.toLowerCase())) continue;
    if (!tags.has(name.toLowerCase())) tags.set(name.toLowerCase(), name);
    add('tag', m.index, m.index + 1 + name.length, name);
  }

  let recurrence: Recurrence | null = null;
  let firstDue: { at: Date; allDay: boolean } | null = null;
  const words = findRecurrenceWords(rest);
  if (words) {
    recurrence = { rule: words.rule, from: words.from };
    firstDue = firstOccurrence(words.rule, ctx.zone, ctx.now, words.time);
    add('recurrence', words.start, words.end, words.rule);
  }

  // The organizer's own reader, on what is left: blanked tokens cannot be mistaken for dates.
  const due = findDueDate(rest, ctx.now, ctx.zone);
  let title = rest;
  let dueAt = firstDue;
  if (due.dueAt) {
    // A date with the rule is the first due date; a time given with the rule ("every friday 3pm") is kept when the date names none.
    dueAt = { at: due.dueAt, allDay: due.allDay };
    if (due.allDay && words?.time) dueAt = { at: instantOf(ctx.zone, { ...wallTimeAt(ctx.zone, due.dueAt), ...words.time }), allDay: false };
    title = due.title;
    const value = toTimestamp(due.dueAt);
    const taken = spans.map((sp) => [sp.start - at, sp.end - at] as const);
    for (const [start, end] of due.phrases) for (const [from, to] of around(line, start, end, taken)) add('date', from, to, value);
  }

  // No reader matches the mask, so each refused range is still one run, in order: its words go back.
  let next = 0;
  title = tidy(title.replace(/\uE000+/gu, () => refused[next++] ?? ''));
  spans.sort((a, b) => a.start - b.start);
  return {
    // A line of nothing but tokens keeps its text as the title: nothing typed is lost.
    title: title === '' ? split.title : title,
    content_md: split.content_md,
    due_at: dueAt ? toTimestamp(dueAt.at) : null,
    all_day: dueAt?.allDay ?? false,
    project_id: projectId,
    tags: [...tags.values()],
    recurrence,
    spans,
  };
}
