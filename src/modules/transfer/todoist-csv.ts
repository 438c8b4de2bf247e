import { parse } from 'csv-parse/sync';
import { v5 as uuidv5 } from 'uuid';
import { badRequest } from '../../errors.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { findDueDate } from '../../lib/dates/due-date.js';
import { instantOf } from '../../lib/dates/zoned-time.js';
import { firstOccurrence } from '../quick-add/first-occurrence.js';
import { findRecurrenceWords } from '../quick-add/recurrence-words.js';
import { parentsFirst, type ImportPlan, type PlanDrop, type PlannedItem, type PlannedProject, type PlanSkip } from './import-plan.js';

/** Ids of imported Todoist tasks are derived from the user and the task, so a second import finds them. */
const TODOIST_NAMESPACE = '6f1d2b0e-8c55-4c1e-9a51-3f1e2a7c9b44';
const INBOX_REF = 'inbox';
const LABEL = /(^|\s)@([^\s@,]{1,50})(?=\s|$)/gu;

interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

function readRows(text: string): CsvRow[] {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    // With `info`, each record comes with where it was (the typings only know the plain shape).
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false, info: true }) as unknown as typeof records;
  } catch (error) {
    throw badRequest(`the CSV does not parse: ${(error as Error).message.split('\n')[0]}`, 'body');
  }
  const header = records[0]?.record.map((h) => h.trim().toUpperCase());
  if (!header || !header.includes('TYPE') || !header.includes('CONTENT')) {
    throw badRequest("not Todoist's CSV export: the first line must name the columns TYPE and CONTENT", 'body');
  }
  return records.slice(1).map(({ record, info }) => ({
    line: info.lines,
    cells: Object.fromEntries(header.map((name, i) => [name, (record[i] ?? '').trim()])),
  }));
}

/** `@label` words become tags and leave the title. */
function splitLabels(content: string): { title: string; tags: string[] } {
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

interface ReadDue {
  due_at: string;
  /** A DATE without a time of day is all-day: due on that day, at 00:00 in the importing user's zone. */
  all_day: boolean;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** DATE is read as the organizer reads a date in a capture; a plain ISO date in the past is kept too. */
function readDate(value: string, now: Date, zone: string): ReadDue | null {
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
function carryRecurrence(
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
function droppedPriority(value: string, line: number): PlanDrop | null {
  const level = Number.parseInt(value, 10);
  return level >= 1 && level <= 3 ? { line_or_index: line, field: 'priority', value: `p${level}` } : null;
}

/** The row types Todoist writes that carry something here; any other (`meta`, say) is skipped and reported. */
const KNOWN_TYPES = new Set(['task', 'section', 'note']);

/**
 * Todoist's CSV export: `task` rows become todos (INDENT makes subtasks), `section` rows become
 * projects holding the tasks below them, `note` rows (comments) join their task's text. Tasks are
 * stamped now, one millisecond apart in file order, newest first, so the inbox lists them in the
 * file's order.
 */
export function readTodoistCsv(text: string, ctx: { userId: string; now: Date; timezone: string }): ImportPlan {
  const rows = readRows(text);
  const projects: PlannedProject[] = [{ ref: INBOX_REF, name: 'Inbox', is_default: true }];
  const items: PlannedItem[] = [];
  let projectRef = INBOX_REF;
  /** The last task at each indent level, for subtasks and notes. */
  const open: PlannedItem[] = [];
  const occurrences = new Map<string, number>();
  let last: PlannedItem | undefined;
  const skipped: PlanSkip[] = [];
  const dropped: PlanDrop[] = [];
  for (const row of rows) {
    const type = (row.cells.TYPE ?? '').toLowerCase();
    const content = row.cells.CONTENT ?? '';
    if (type === '' && content === '') continue;
    if (!KNOWN_TYPES.has(type)) {
      skipped.push({ line_or_index: row.line, reason: `unknown row type "${row.cells.TYPE ?? ''}"` });
      continue;
    }
    if (type === 'section') {
      if (content === '') throw badRequest(`line ${row.line}: a section without a name`, 'body');
      projectRef = `section:${content.toLowerCase()}`;
      if (!projects.some((p) => p.ref === projectRef)) projects.push({ ref: projectRef, name: content, is_default: false });
      open.length = 0;
      last = undefined;
      continue;
    }
    if (type === 'note') {
      if (!last) throw badRequest(`line ${row.line}: a note with no task above it`, 'body');
      last.content_md = last.content_md ? `${last.content_md}\n\n${content}` : content;
      continue;
    }
    const indent = Math.max(1, Number.parseInt(row.cells.INDENT ?? '1', 10) || 1);
    const parent =
      indent > 1
        ? open
            .slice(0, indent - 1)
            .reverse()
            .find(Boolean)
        : undefined;
    const { title, tags } = splitLabels(content);
    if (title === '' && tags.length === 0) throw badRequest(`line ${row.line}: a task without content`, 'body');
    const basis = [ctx.userId, projectRef, parent?.id ?? '', content].join('\n');
    const seen = (occurrences.get(basis) ?? 0) + 1;
    occurrences.set(basis, seen);
    const at = toTimestamp(new Date(ctx.now.getTime() - items.length));
    const due = readDate(row.cells.DATE ?? '', ctx.now, ctx.timezone);
    const item: PlannedItem = {
      position: row.line,
      id: uuidv5(`${basis}\n${seen}`, TODOIST_NAMESPACE),
      project_ref: projectRef,
      parent_id: parent?.id ?? null,
      type: 'todo',
      title: title === '' ? null : title,
      content_md: row.cells.DESCRIPTION ? row.cells.DESCRIPTION : null,
      is_completed: false,
      status: 'todo',
      due_at: due?.due_at ?? null,
      all_day: due?.all_day ?? false,
      archived_at: null,
      created_at: at,
      updated_at: at,
      tags,
    };
    items.push(item);
    const recurring = carryRecurrence(row.cells.DATE ?? '', row.line, due, ctx);
    if (recurring && 'recurrence' in recurring) {
      item.recurrence = recurring.recurrence;
      item.due_at = recurring.due_at;
      item.all_day = recurring.all_day;
    }
    for (const drop of [
      droppedPriority(row.cells.PRIORITY ?? '', row.line),
      recurring && 'field' in recurring ? recurring : null,
      row.cells.DEADLINE ? { line_or_index: row.line, field: 'deadline', value: row.cells.DEADLINE } : null,
    ]) {
      if (drop) dropped.push(drop);
    }
    open.length = indent - 1;
    open[indent - 1] = item;
    last = item;
  }
  return { projects, items: parentsFirst(items), skipped, dropped };
}
