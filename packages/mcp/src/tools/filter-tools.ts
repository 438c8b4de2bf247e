import { z } from 'zod';
import { describeList } from '../format.js';
import { guarded, toolResult } from '../results.js';
import { ItemPage, PageInput } from '../schemas.js';
import { listedAsObject, type ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const READ = { readOnlyHint: true } as const;
const DEFAULT_LIMIT = 20;

/**
 * The language in one short paragraph (docs/filters.md is the reference): tools/list stays under
 * 10 KiB, so every word here is one the model needs to write a query. The server parses it.
 */
const SYNTAX =
  'Terms: today, overdue, no date, 7 days, due before: friday, #Project, #"Two words", @tag, @tag*, todos, notes, subtasks, ' +
  'search: words, done, all (else open only); & | ! ( ). E.g. (today | overdue) & #Work & !@waiting.';

const FilterList = listedAsObject(
  z.object({ filters: z.array(z.object({ id: z.string(), name: z.string(), query: z.string(), color: z.string().nullable(), position: z.number() })) }),
);

export function registerFilterTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'find_items',
    {
      description: `Items a filter picks, soonest due first. Paged. ${SYNTAX}`,
      input: z.object({ filter: z.string(), ...PageInput }),
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
      description: 'Saved filters: names and queries for find_items.',
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
