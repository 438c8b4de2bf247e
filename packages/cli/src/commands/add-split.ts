import { ApiError, type CaptureInbox, type Item, type SplitItem } from '@capture-inbox/sdk';
import { planCapture } from '../capture-flow.js';
import { UsageError } from '../command.js';
import type { Context } from '../context.js';
import { formatDue, itemRows, type ProjectNames } from '../format.js';

/** How deep each item sits under its headings, from parent_index (0 at the top level). */
function depths(items: readonly { parent_index: number | null }[]): number[] {
  const out: number[] = [];
  items.forEach((item, i) => out.push(item.parent_index === null || item.parent_index >= i ? 0 : out[item.parent_index]! + 1));
  return out;
}

/** The project names this key may read, or none (a capture-only key): rows then show short ids. */
async function readableNames(inbox: CaptureInbox): Promise<ProjectNames> {
  const projects = await inbox.projects.list().catch(() => []);
  return new Map(projects.map((p) => [p.id, { name: p.name }]));
}

/** One line a previewed item: indented under its heading, `[x]` when done, then what quick add read. */
function previewLine(item: SplitItem, depth: number, names: ProjectNames, zone: string): string {
  const parts = [`${'  '.repeat(depth)}${item.is_completed ? '[x] ' : ''}${item.title}`];
  if (item.project_id) parts.push(`#${names.get(item.project_id)?.name ?? item.project_id.slice(-8)}`);
  for (const tag of item.tags) parts.push(`@${tag}`);
  if (item.due_at) parts.push(`due ${formatDue(item.due_at, zone)}`);
  if (item.recurrence) parts.push(`repeats ${item.recurrence.rule}`);
  return parts.join('  ');
}

/**
 * With --organize the server's model may split prose (an instance with the OpenAI-compatible
 * engine); on Free the list is split by the rules alone, with the warning `cin add --organize` gives.
 */
async function proOrPlain<T>(ctx: Context, organize: boolean, call: (withModel: boolean) => Promise<T>): Promise<T> {
  if (!organize) return call(false);
  try {
    return await call(true);
  } catch (error) {
    if (!(error instanceof ApiError && error.error === 'pro_required')) throw error;
    const answer = await call(false);
    ctx.note(`warning: the organizer needs the Pro plan (${error.message}); split by the rules alone`);
    return answer;
  }
}

/**
 * `cin add --split`: the text as a brain dump, one item a line (`[x]` done, `Heading:` over the
 * lines under it), captured at once with POST /capture/batch; `--dry-run` prints the split
 * (POST /parse with split) and stores nothing.
 */
export async function addSplit(ctx: Context, inbox: CaptureInbox, text: string): Promise<number> {
  for (const flag of ['note', 'parent', 'due'] as const) {
    if (ctx.flag(flag) || (flag === 'parent' || flag === 'due' ? ctx.string(flag) !== undefined : false))
      throw new UsageError(`--split captures each line with its own words; --${flag} does not apply to a list`);
  }
  const organize = ctx.flag('organize');
  if (ctx.flag('dry-run')) {
    const items = await proOrPlain(ctx, organize, (withModel) => inbox.items.parseSplit(text, { organize: withModel }));
    if (ctx.json) return (ctx.printJson({ items }), 0);
    const [names, me] = await Promise.all([readableNames(inbox), inbox.me.get()]);
    const deep = depths(items);
    items.forEach((item, i) => ctx.print(previewLine(item, deep[i]!, names, me.timezone)));
    return 0;
  }
  const tags = ctx.strings('tag');
  const plan = await planCapture(ctx, inbox, { project: ctx.string('project'), tags: [] });
  const items: Item[] = await proOrPlain(ctx, organize, (withModel) =>
    inbox.items.captureBatch({
      text,
      ...(ctx.flag('raw') ? { parse: false } : {}),
      ...(withModel ? { organize: true } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(plan.projectId !== undefined ? { project_id: plan.projectId } : {}),
    }),
  );
  if (ctx.json) return (ctx.printJson({ items }), 0);
  const names = new Map([...(await readableNames(inbox)), ...plan.names]);
  const deep = depths(items.map((item) => ({ parent_index: item.parent_id === null ? null : items.findIndex((p) => p.id === item.parent_id) })));
  items.forEach((item, i) => {
    const [row] = itemRows([item], { projects: names, zone: plan.zone ?? 'UTC' }, ctx.display, 10 + 2 * deep[i]!);
    ctx.print(`${(i === 0 ? 'added' : '').padEnd(8)}  ${row ?? ''}`);
  });
  return 0;
}
