import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { PlannedItem, PlannedProject } from '../../src/modules/transfer/import-plan.js';
import { readTodoistCsv } from '../../src/modules/transfer/todoist-csv.js';

const CTX = { userId: 'user-1', now: new Date('2026-11-29T10:00:00.000Z'), timezone: 'Europe/Berlin' };
const HEADER = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE';

async function readAll(text: string) {
  const read = readTodoistCsv(text, CTX);
  const projects: PlannedProject[] = [];
  const items: PlannedItem[] = [];
  for await (const step of read.steps) {
    if ('project' in step) projects.push(step.project);
    else items.push(step.item);
  }
  return { projects, items, skipped: read.skipped, dropped: read.dropped };
}

async function refusal(text: string): Promise<string> {
  try {
    await readAll(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error('read without a fault');
}

describe("Todoist's CSV, read as it streams (decision 0101)", () => {
  it('gives the plan the whole-file reader gave: same ids, parents, notes, dates, tags, skipped and dropped rows', async () => {
    // tricky.plan.json is what the reader before decision 0101 (csv-parse/sync, the plan held whole) answered for tricky.csv.
    const text = readFileSync('test/fixtures/todoist/tricky.csv', 'utf8');
    const before = JSON.parse(readFileSync('test/fixtures/todoist/tricky.plan.json', 'utf8')) as Awaited<ReturnType<typeof readAll>>;
    expect(await readAll(text)).toEqual(before);
  });

  it('holds the parent chain across any number of rows, and a repeated task keeps counting after thousands of others', async () => {
    const rows = [HEADER, 'task,Root,,4,1,,,,en,'];
    for (let i = 0; i < 1_200; i += 1) rows.push(`task,Child ${i},,4,2,,,,en,`);
    rows.push('task,Child 0,,4,2,,,,en,', 'task,Grandchild,,4,3,,,,en,', '');
    const { items } = await readAll(rows.join('\n'));
    const root = items[0]!;
    expect(items).toHaveLength(1_203);
    expect(items.slice(1, 1_202).every((i) => i.parent_id === root.id)).toBe(true);
    expect(new Set(items.map((i) => i.id)).size).toBe(1_203);
    expect(items[1_202]!.parent_id).toBe(items[1_201]!.id);
    // One millisecond apart in file order, newest first, past any chunk of the parser.
    expect(items[1_202]!.created_at).toBe(new Date(CTX.now.getTime() - 1_202).toISOString());
  });

  it('refuses a file that is not Todoist CSV, or breaks late in the file, as it reaches the fault', async () => {
    expect(await refusal('name,email\nx,y\n')).toMatch(/^not Todoist's CSV export/);
    expect(await refusal('')).toMatch(/^not Todoist's CSV export/);
    const late = [HEADER, ...Array.from({ length: 3_000 }, (_, i) => `task,Task ${i},,4,1,,,,en,`), 'task,"unclosed,,4,1,,,,en,', ''].join('\n');
    expect(await refusal(late)).toMatch(/^the CSV does not parse: /);
    expect(await refusal([HEADER, 'note,orphan,,,,,,,,', ''].join('\n'))).toBe('line 2: a note with no task above it');
  });
});
