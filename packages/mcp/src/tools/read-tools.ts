import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { describeItem, describeList } from '../format.js';
import type { Item, ItemPage } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemList, ItemStatus, OneItem, ProjectList } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const Limit = z.number().int().min(1).max(100).optional().describe('How many items at most (default 20, at most 100).');
const DEFAULT_LIMIT = 20;
/** Pages of the change feed read to fill a list of one project's changes, at most. */
const MAX_FEED_PAGES = 3;
const FEED_PAGE = 200;

const SearchInput = z.object({
  query: z
    .string()
    .max(500)
    .describe('Words to find. Each word must match the start of a word in the title or body, case-insensitively ("dent" finds "dentist").'),
  status: ItemStatus.optional().describe('Only items in this status.'),
  tag: z.string().min(1).optional().describe('Only items with this tag (case-insensitive).'),
  project: z.string().min(1).optional().describe('Only items of this project (name or id).'),
  limit: Limit,
});

const ListInput = z.object({
  project: z.string().min(1).optional().describe('Only items of this project (name or id).'),
  since: DateTimeInput.optional().describe('Only items changed at or after this time (ISO 8601); then oldest change first.'),
  limit: Limit,
});

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A page that stops at the limit, with whether more exist beyond it. */
function pageOf(items: Item[], limit: number, more: boolean): { items: Item[]; has_more: boolean } {
  return { items: items.slice(0, limit), has_more: more || items.length > limit };
}

export function registerReadTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'search',
    {
      title: 'Search items',
      description:
        "Find the user's items by words, newest first. Every word of the query must match the start of a word in the title or body, case-insensitively: " +
        '"dent" finds "dentist", "call dentist" finds items with both. Quotes and punctuation only separate words; there are no operators. ' +
        'Narrow with status, tag or project. An empty query lists everything the filters allow.',
      inputSchema: SearchInput,
      outputSchema: ItemList,
      annotations: { title: 'Search items', ...READ },
    },
    async (input) =>
      guarded(async () => {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const projectId = input.project === undefined ? undefined : await ctx.resolveProject(input.project);
        const page = await ctx.api.search({
          q: input.query,
          limit,
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.tag !== undefined ? { tag: input.tag } : {}),
          ...(projectId !== undefined ? { project_id: projectId } : {}),
        });
        const result = pageOf(page.items, limit, page.next_cursor !== null);
        const items = await ctx.views(result.items);
        const what = input.query.trim() === '' ? '' : ` for '${input.query.trim()}'`;
        const summary = `Found ${plural(items.length, 'item')}${what}${result.has_more ? ' (more match: narrow the query or raise limit)' : ''}`;
        return toolResult(describeList(summary, items, await ctx.timeZone()), ItemList, { items, has_more: result.has_more });
      }),
  );

  server.registerTool(
    'list_items',
    {
      title: 'List items',
      description:
        "List the user's newest items, across all projects or in one project. With since, list the items changed at or after that time instead, " +
        'oldest change first: use it to catch up on what changed. To find items by words, use search.',
      inputSchema: ListInput,
      outputSchema: ItemList,
      annotations: { title: 'List items', ...READ },
    },
    async (input) =>
      guarded(async () => {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const projectId = input.project === undefined ? undefined : await ctx.resolveProject(input.project);
        let result: { items: Item[]; has_more: boolean };
        if (input.since === undefined) {
          const page: ItemPage = projectId === undefined ? await ctx.api.listItems({ limit }) : await ctx.api.listProjectItems(projectId, { limit });
          result = pageOf(page.items, limit, page.next_cursor !== null);
        } else {
          // The change feed has no project filter: read a few pages of it and keep the project's items.
          const kept: Item[] = [];
          let cursor: string | undefined;
          let more = false;
          for (let pages = 0; pages < MAX_FEED_PAGES && kept.length <= limit; pages += 1) {
            const page = await ctx.api.listItems({ since: input.since, limit: projectId === undefined ? limit : FEED_PAGE, ...(cursor ? { cursor } : {}) });
            kept.push(...page.items.filter((item) => projectId === undefined || item.project_id === projectId));
            more = page.next_cursor !== null;
            if (!more || projectId === undefined) break;
            cursor = page.next_cursor ?? undefined;
          }
          result = pageOf(kept, limit, more);
        }
        const items = await ctx.views(result.items);
        const where = input.project === undefined ? '' : ` in ${items[0]?.project_name ?? input.project}`;
        const summary = `${plural(items.length, 'item')}${where}${input.since ? ` changed since ${input.since}` : ''}${result.has_more ? ' (more exist: raise limit)' : ''}`;
        return toolResult(describeList(summary, items, await ctx.timeZone()), ItemList, { items, has_more: result.has_more });
      }),
  );

  server.registerTool(
    'get_item',
    {
      title: 'Get an item',
      description: 'Get one item by its id: title, Markdown body, project, status, due date and tags.',
      inputSchema: z.object({ id: z.string().min(1).describe('The item id.') }),
      outputSchema: OneItem,
      annotations: { title: 'Get an item', ...READ },
    },
    async ({ id }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.getItem(id));
        const body = item.content_md ? `\n${item.content_md}` : '';
        return toolResult(`${describeItem(item, await ctx.timeZone())}${body}`, OneItem, { item });
      }),
  );

  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description: "List the user's projects with their ids and item counts. The Inbox (is_default) is where items without a project land.",
      inputSchema: z.object({}),
      outputSchema: ProjectList,
      annotations: { title: 'List projects', ...READ },
    },
    async () =>
      guarded(async () => {
        const projects = (await ctx.listProjects()).map(({ id, name, is_default, item_count }) => ({ id, name, is_default, item_count }));
        const lines = projects.map((p) => `- ${p.name}${p.is_default ? ' (default)' : ''}: ${plural(p.item_count, 'item')} · id ${p.id}`);
        return toolResult([`${plural(projects.length, 'project')}`, ...lines].join('\n'), ProjectList, { projects });
      }),
  );
}
