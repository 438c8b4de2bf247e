import type { EndItem } from './account.js';
import { dayFrom, type Check, type Expect, type Task } from './tasks.js';

const same = (a: string | null, b: string): boolean => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** What differs from the expectation, one line each; empty when the item is as expected. */
function differences(item: EndItem, want: Expect, today: Date): string[] {
  const out: string[] = [];
  const label = `'${item.title ?? ''}'`;
  if (want.title !== undefined && item.title !== want.title) out.push(`${label}: title is ${JSON.stringify(item.title)}, not ${JSON.stringify(want.title)}`);
  if (want.is_completed !== undefined && item.is_completed !== want.is_completed) out.push(`${label}: is_completed is ${item.is_completed}`);
  if (want.status !== undefined && item.status !== want.status) out.push(`${label}: status is ${item.status}, not ${want.status}`);
  if (want.project !== undefined && !same(item.project, want.project)) out.push(`${label}: in ${item.project}, not ${want.project}`);
  for (const tag of want.tags_include ?? []) if (!item.tags.some((t) => same(t, tag))) out.push(`${label}: tags ${JSON.stringify(item.tags)} lack ${tag}`);
  if (want.content_includes !== undefined && !(item.content_md ?? '').toLowerCase().includes(want.content_includes.toLowerCase()))
    out.push(`${label}: notes ${JSON.stringify(item.content_md)} lack ${JSON.stringify(want.content_includes)}`);
  const due = item.due_at === null ? null : new Date(item.due_at);
  if ((want.due_date ?? want.due_weekday ?? want.due_hour) !== undefined && due === null) out.push(`${label}: has no due date`);
  if (due !== null) {
    if (want.due_date !== undefined && item.due_at!.slice(0, 10) !== dayFrom(today, Number(want.due_date)))
      out.push(`${label}: due ${item.due_at}, not on ${dayFrom(today, Number(want.due_date))}`);
    if (want.due_weekday !== undefined && due.getUTCDay() !== want.due_weekday) out.push(`${label}: due ${item.due_at}, not on weekday ${want.due_weekday}`);
    if (want.due_hour !== undefined && due.getUTCHours() !== want.due_hour) out.push(`${label}: due ${item.due_at}, not at ${want.due_hour}:00 UTC`);
  }
  return out;
}

function checkOne(check: Check, items: readonly EndItem[], answer: string, today: Date): string[] {
  if ('answer_includes' in check) {
    return check.answer_includes
      .filter((word) => !answer.toLowerCase().includes(word.toLowerCase()))
      .map((word) => `the answer does not mention ${JSON.stringify(word)}`);
  }
  const found = items.filter((i) => (check.contains ? (i.title ?? '').toLowerCase().includes(check.item.toLowerCase()) : same(i.title, check.item)));
  if (check.exists === false) return found.length === 0 ? [] : [`'${check.item}' still exists`];
  if (found.length === 0) return [`no item ${check.contains ? 'containing' : 'titled'} '${check.item}'`];
  // Any one of the matches may be the one the task meant.
  const tries = found.map((item) => differences(item, check.is ?? {}, today));
  return tries.find((d) => d.length === 0) ?? tries[0]!;
}

/**
 * The task's checks on the account's end state, plus what every task owes: the seeded items it was
 * not asked to touch are exactly as they were, and it added exactly the items it was asked to add.
 */
export function judge(task: Task, before: readonly EndItem[], after: readonly EndItem[], answer: string, today: Date): string[] {
  const failures = task.checks.flatMap((check) => checkOne(check, after, answer, today));
  const touched = new Set((task.touches ?? []).map((t) => t.toLowerCase()));
  const now = new Map(after.map((i) => [i.id, i]));
  for (const seeded of before) {
    if (touched.has((seeded.title ?? '').toLowerCase())) continue;
    const end = now.get(seeded.id);
    if (!end) failures.push(`'${seeded.title}' was deleted, though the task did not ask for it`);
    else if (end.updated_at !== seeded.updated_at) failures.push(`'${seeded.title}' was changed, though the task did not ask for it`);
  }
  const seededIds = new Set(before.map((i) => i.id));
  const added = after.filter((i) => !seededIds.has(i.id)).length;
  if (added !== (task.creates ?? 0)) failures.push(`${added} item(s) added, expected ${task.creates ?? 0}`);
  return failures;
}
