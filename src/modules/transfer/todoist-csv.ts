import { Readable } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { v5 as uuidv5 } from 'uuid';
import { badRequest } from '../../errors.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ImportStep, PlanDrop, PlannedItem, PlannedProject, PlanSkip } from './import-plan.js';
import { carryRecurrence, dateReader, droppedPriority, splitLabels } from './todoist-fields.js';
import { UuidSet } from './uuid-set.js';

/** Ids of imported Todoist tasks are derived from the user and the task, so a second import finds them. */
const TODOIST_NAMESPACE = '6f1d2b0e-8c55-4c1e-9a51-3f1e2a7c9b44';
const INBOX: PlannedProject = { ref: 'inbox', name: 'Inbox', is_default: true };
/** Characters handed to the parser at a time: its records wait for the importer a chunk at most. */
const CHUNK_CHARS = 64 * 1024;

interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

function* chunksOf(text: string): Generator<string> {
  for (let i = 0; i < text.length; i += CHUNK_CHARS) yield text.slice(i, i + CHUNK_CHARS);
}

/** The rows under the header, as the parser reads them: the header's names (upper case) to the cells. */
async function* readRows(text: string): AsyncGenerator<CsvRow> {
  const source = Readable.from(chunksOf(text));
  // With `info`, each record comes with where it was (the typings only know the plain shape).
  const parser: Parser = source.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: false, info: true }));
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;
  const next = async () => {
    try {
      return await records.next();
    } catch (error) {
      throw badRequest(`the CSV does not parse: ${(error as Error).message.split('\n')[0]}`, 'body');
    }
  };
  try {
    const first = await next();
    const header = first.done ? undefined : first.value.record.map((h) => h.trim().toUpperCase());
    if (!header || !header.includes('TYPE') || !header.includes('CONTENT')) {
      throw badRequest("not Todoist's CSV export: the first line must name the columns TYPE and CONTENT", 'body');
    }
    for (let read = await next(); !read.done; read = await next()) {
      const { record, info } = read.value;
      yield { line: info.lines, cells: Object.fromEntries(header.map((name, i) => [name, (record[i] ?? '').trim()])) };
    }
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/**
 * The n-th task of the same user, section, parent and content gets the n-th id. Tasks are counted
 * by their first id (16 bytes off the heap), not by that text, and a count is kept only for a repeat.
 */
function occurrenceIds(): (basis: string) => string {
  const firsts = new UuidSet();
  const repeats = new Map<string, number>();
  return (basis) => {
    const first = uuidv5(`${basis}\n1`, TODOIST_NAMESPACE);
    if (firsts.add(first)) return first;
    const seen = (repeats.get(first) ?? 1) + 1;
    repeats.set(first, seen);
    return uuidv5(`${basis}\n${seen}`, TODOIST_NAMESPACE);
  };
}

/** The row types Todoist writes that carry something here; any other (`meta`, say) is skipped and reported. */
const KNOWN_TYPES = new Set(['task', 'section', 'note']);

export interface TodoistRead {
  /** The Inbox, then each section (a project) where it first appears, and the tasks in file order: a parent before its subtasks. */
  steps: AsyncIterable<ImportStep>;
  /** Rows left out whole (a `meta` row), filled as `steps` is read. */
  skipped: PlanSkip[];
  /** What a task could not carry (a priority, a deadline), filled as `steps` is read. */
  dropped: PlanDrop[];
}

/**
 * Todoist's CSV export, read as it streams: `task` rows become todos (INDENT makes subtasks),
 * `section` rows become projects holding the tasks below them, `note` rows (comments) join their
 * task's text, so a task is given only when the next task or section (or the end) comes. Tasks are
 * stamped now, one millisecond apart in file order, newest first, so the inbox lists them in the
 * file's order. A fault throws while `steps` is read, into the import's transaction.
 */
export function readTodoistCsv(text: string, ctx: { userId: string; now: Date; timezone: string }): TodoistRead {
  // The first date and recurrence a process reads build their parsers (0.1–0.4 s): here, before
  // the import takes the SQLite writer, not while it holds it.
  const warm = dateReader(ctx.now, ctx.timezone);
  for (const date of ['2001-02-03', 'tomorrow 9am']) carryRecurrence(`every day ${date}`, 0, warm(date), ctx);
  const skipped: PlanSkip[] = [];
  const dropped: PlanDrop[] = [];
  return { steps: todoistSteps(text, ctx, skipped, dropped), skipped, dropped };
}

async function* todoistSteps(
  text: string,
  ctx: { userId: string; now: Date; timezone: string },
  skipped: PlanSkip[],
  dropped: PlanDrop[],
): AsyncGenerator<ImportStep> {
  const readDate = dateReader(ctx.now, ctx.timezone);
  const idOf = occurrenceIds();
  const sections = new Set<string>();
  let projectRef = INBOX.ref;
  /** The open tasks a subtask may belong to, by indent level (0-based), shallowest first: a chain of parents. */
  let open: { level: number; id: string }[] = [];
  /** The last task, held back for the notes below it. */
  let last: PlannedItem | undefined;
  let tasks = 0;
  let started = false;
  for await (const row of readRows(text)) {
    if (!started) {
      started = true;
      yield { project: INBOX };
    }
    const type = (row.cells.TYPE ?? '').toLowerCase();
    const content = row.cells.CONTENT ?? '';
    if (type === '' && content === '') continue;
    if (!KNOWN_TYPES.has(type)) {
      skipped.push({ line_or_index: row.line, reason: `unknown row type "${row.cells.TYPE ?? ''}"` });
      continue;
    }
    if (type === 'note') {
      if (!last) throw badRequest(`line ${row.line}: a note with no task above it`, 'body');
      last.content_md = last.content_md ? `${last.content_md}\n\n${content}` : content;
      continue;
    }
    if (last) yield { item: last };
    last = undefined;
    if (type === 'section') {
      if (content === '') throw badRequest(`line ${row.line}: a section without a name`, 'body');
      projectRef = `section:${content.toLowerCase()}`;
      if (!sections.has(projectRef)) {
        sections.add(projectRef);
        yield { project: { ref: projectRef, name: content, is_default: false } };
      }
      open = [];
      continue;
    }
    const indent = Math.max(1, Number.parseInt(row.cells.INDENT ?? '1', 10) || 1);
    // The nearest open task above this indent; deeper ones close.
    open = open.filter((o) => o.level < indent - 1);
    const parentId = open[open.length - 1]?.id ?? null;
    const { title, tags } = splitLabels(content);
    if (title === '' && tags.length === 0) throw badRequest(`line ${row.line}: a task without content`, 'body');
    const at = toTimestamp(new Date(ctx.now.getTime() - tasks));
    tasks += 1;
    const due = readDate(row.cells.DATE ?? '');
    const item: PlannedItem = {
      position: row.line,
      id: idOf([ctx.userId, projectRef, parentId ?? '', content].join('\n')),
      project_ref: projectRef,
      parent_id: parentId,
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
    open.push({ level: indent - 1, id: item.id });
    last = item;
  }
  if (last) yield { item: last };
}
