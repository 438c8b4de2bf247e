import { z } from 'zod';
import { describeItem, describeList } from '../format.js';
import type { Item, Page } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemPage, ItemStatus, ItemWithSubtasks, PageInput, ProjectList } from '../schemas.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

/** The other hints mean nothing on a tool that changes nothing (MCP spec), so they are not listed. */
const READ = { readOnlyHint: true } as const;
const DEFAULT_LIMIT = 20;
/** Subtasks get_item shows; list_subtasks pages on from there. */
const SUBTASKS_SHOWN = 50;
/** Pages of the change feed read to fill one page of one project's changes, at most. */
const MAX_FEED_PAGES = 5;
const Id = z.string().min(1);

const SearchInput = z.object({
  query: z.string().describe('"dent" finds "dentist"; empty: all.'),
  status: ItemStatus.optional(),
  tag: z.string().optional(),
  project: z.string().optional().describe('Name or id.'),
  ...PageInput,
});

const ListInput = z.object({
  project: z.string().optional().describe('Name or id.'),
  since: DateTimeInput.optional(),
  ...PageInput,
});

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const moreNote = (page: Page<unknown>): string => (page.next_cursor === null ? '' : ' (more: call again with cursor = next_cursor)');
const cursorOf = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

export function registerReadTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'search',
    {
      description: 'Items where each query word matches the start of a word in title or body (any case), newest first; no operators. Paged.',
      input: SearchInput,
      output: ItemPage,
      hints: READ,
    },
    async (input) =>
      guarded(async () => {
        const projectId = input.project === undefined ? undefined : await ctx.resolveProject(input.project);
        const page = await ctx.api.search({
          q: input.query,
          limit: input.limit ?? DEFAULT_LIMIT,
          ...cursorOf(input.cursor),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.tag !== undefined ? { tag: input.tag } : {}),
          ...(projectId !== undefined ? { project_id: projectId } : {}),
        });
        const items = await ctx.views(page.items);
        const what = input.query.trim() === '' ? '' : ` for '${input.query.trim()}'`;
        const summary = `Found ${plural(items.length, 'item')}${what}${moreNote(page)}`;
        return toolResult(describeList(summary, items, await ctx.timeZone()), ItemPage, { items, next_cursor: page.next_cursor });
      }),
  );

  tools.add(
    'list_items',
    {
      description: "The newest items, or one project's; with since, those changed since, oldest change first. Paged.",
      input: ListInput,
      output: ItemPage,
      hints: READ,
    },
    async (input) =>
      guarded(async () => {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const projectId = input.project === undefined ? undefined : await ctx.resolveProject(input.project);
        const query = { limit, ...cursorOf(input.cursor) };
        const page =
          input.since !== undefined
            ? await changedSince(ctx, input.since, projectId, query)
            : projectId === undefined
              ? await ctx.api.listItems(query)
              : await ctx.api.listProjectItems(projectId, query);
        const items = await ctx.views(page.items);
        const where = input.project === undefined ? '' : ` in ${items[0]?.project_name ?? input.project}`;
        const summary = `${plural(items.length, 'item')}${where}${input.since ? ` changed since ${input.since}` : ''}${moreNote(page)}`;
        return toolResult(describeList(summary, items, await ctx.timeZone()), ItemPage, { items, next_cursor: page.next_cursor });
      }),
  );

  tools.add(
    'get_item',
    {
      description:
        'One item and its subtasks. Item: id, title, content_md (Markdown), project_id, project_name, type, status, is_completed, due_at, remind_at (UTC), recurrence, parent_id, tags.',
      input: z.object({ id: Id }),
      output: ItemWithSubtasks,
      hints: READ,
    },
    async ({ id }) =>
      guarded(async () => {
        const [item, subtasks] = await Promise.all([ctx.api.getItem(id), ctx.api.listSubtasks(id, { limit: SUBTASKS_SHOWN })]);
        const [view, ...children] = await ctx.views([item, ...subtasks.items]);
        const zone = await ctx.timeZone();
        const body = view!.content_md ? `\n${view!.content_md}` : '';
        const list =
          children.length === 0
            ? ''
            : `\n${describeList(`${plural(children.length, 'subtask')}${subtasks.next_cursor === null ? '' : ' (more: list_subtasks)'}:`, children, zone)}`;
        return toolResult(`${describeItem(view!, zone)}${body}${list}`, ItemWithSubtasks, {
          item: view!,
          subtasks: children,
          subtasks_cursor: subtasks.next_cursor,
        });
      }),
  );

  tools.add(
    'list_subtasks',
    {
      description: "An item's subtasks (parent_id = id), newest first. Paged.",
      input: z.object({ id: Id, ...PageInput }),
      output: ItemPage,
      hints: READ,
    },
    async ({ id, limit, cursor }) =>
      guarded(async () => {
        const page = await ctx.api.listSubtasks(id, { limit: limit ?? DEFAULT_LIMIT, ...cursorOf(cursor) });
        const items = await ctx.views(page.items);
        const summary = `${plural(items.length, 'subtask')}${moreNote(page)}`;
        return toolResult(describeList(summary, items, await ctx.timeZone()), ItemPage, { items, next_cursor: page.next_cursor });
      }),
  );

  tools.add(
    'list_projects',
    {
      description: 'The projects with ids and item counts; the Inbox is the default.',
      input: z.object({}),
      output: ProjectList,
      hints: READ,
    },
    async () =>
      guarded(async () => {
        const projects = (await ctx.listProjects()).map(({ id, name, is_default, item_count }) => ({ id, name, is_default, item_count }));
        const lines = projects.map((p) => `- ${p.name}${p.is_default ? ' (default)' : ''}: ${plural(p.item_count, 'item')} · id ${p.id}`);
        return toolResult([`${plural(projects.length, 'project')}`, ...lines].join('\n'), ProjectList, { projects });
      }),
  );
}

/**
 * One page of the change feed, kept to one project when asked. The feed has no project filter, so
 * pages are read and filtered until the limit is reached; each read asks only for what is still
 * missing, so the page never holds more than the limit and the feed's cursor after the last read
 * is exactly where the next call goes on (nothing read is dropped, nothing is skipped).
 */
async function changedSince(ctx: ToolContext, since: string, projectId: string | undefined, query: { limit: number; cursor?: string }): Promise<Page<Item>> {
  if (projectId === undefined) return ctx.api.listItems({ since, ...query });
  const kept: Item[] = [];
  let cursor = query.cursor;
  for (let reads = 0; reads < MAX_FEED_PAGES && kept.length < query.limit; reads += 1) {
    const page = await ctx.api.listItems({ since, limit: query.limit - kept.length, ...cursorOf(cursor) });
    kept.push(...page.items.filter((item) => item.project_id === projectId));
    if (page.next_cursor === null) return { items: kept, next_cursor: null };
    cursor = page.next_cursor;
  }
  return { items: kept, next_cursor: cursor ?? null };
}
