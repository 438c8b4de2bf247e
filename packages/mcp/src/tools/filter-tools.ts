import { z } from 'zod';
import { describeList } from '../format.js';
import { guarded, toolResult } from '../results.js';
import { ItemPage, PageInput } from '../schemas.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const READ = { readOnlyHint: true } as const;
const DEFAULT_LIMIT = 20;

/** The language in one paragraph (docs/filters.md is the reference); the server parses, this only teaches. */
const SYNTAX =
  'Filter syntax (Todoist-like): today, tomorrow, overdue, no date, 7 days, due: D / due before: D / due after: D (D like friday, dec 24, 2026-12-24, +3 days), ' +
  '#Project or #"Two words", @tag, @home* (wildcard), no tags, todos, notes, subtasks, recurring, no reminder, search: words; done, archived or all ' +
  '(else only open items); & and, | or (& binds tighter), ! not, parentheses. Example: (today | overdue) & #Work & !@waiting.';

const SavedFilterView = z.object({ id: z.string(), name: z.string(), query: z.string(), color: z.string().nullable(), position: z.number() });
const FilterList = z.object({ filters: z.array(SavedFilterView) });

export function registerFilterTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'find_items',
    {
      description: `Items a filter query picks, by due date (none last). ${SYNTAX} A query that does not parse is an error naming the position. Pages: pass next_cursor back as cursor.`,
      input: z.object({ filter: z.string().min(1).max(1000), ...PageInput }),
      output: ItemPage,
      hints: READ,
    },
    async ({ filter, limit, cursor }) =>
      guarded(async () => {
        const page = await ctx.api.listItems({ filter, limit: limit ?? DEFAULT_LIMIT, ...(cursor === undefined ? {} : { cursor }) });
        const items = await ctx.views(page.items);
        const more = page.next_cursor === null ? '' : ' (more: call again with cursor = next_cursor)';
        const summary = `${items.length} item${items.length === 1 ? '' : 's'} for '${filter}'${more}`;
        return toolResult(describeList(summary, items, await ctx.timeZone()), ItemPage, { items, next_cursor: page.next_cursor });
      }),
  );

  tools.add(
    'list_filters',
    {
      description: "The user's saved filters (name and query), in their order; pass a query to find_items for its items.",
      input: z.object({}),
      output: FilterList,
      hints: READ,
    },
    async () =>
      guarded(async () => {
        const filters = (await ctx.api.listFilters()).map(({ id, name, query, color, position }) => ({ id, name, query, color, position }));
        const lines = filters.map((f) => `- ${f.name}: ${f.query} · id ${f.id}`);
        return toolResult([`${filters.length} saved filter${filters.length === 1 ? '' : 's'}`, ...lines].join('\n'), FilterList, { filters });
      }),
  );
}
