import { z } from 'zod';
import { describeList } from '../format.js';
import { outcomesOf } from '@capture-inbox/sdk';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemPage, PageInput } from '../schemas.js';
import { listedAsAny, listedAsObject, type ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';
import { patchOf, UPDATE_FIELDS } from './change-tools.js';

/** The API's bulk limit: more ids is a tool error before anything is sent, so nothing changes. */
const MAX_IDS = 100;
const DEFAULT_LIMIT = 20;
const Ids = z.array(z.string().min(1)).min(1).max(MAX_IDS);

const Outcome = listedAsObject(
  z.object({ id: z.string(), ok: z.boolean(), error: z.string().optional().describe('the error code'), message: z.string().optional() }),
);
const Results = z.object({ results: z.array(Outcome) });
type Outcome = z.infer<typeof Outcome>;

function summary(verb: string, results: readonly Outcome[]): string {
  const failed = results.filter((r) => !r.ok);
  const done = `${verb} ${results.length - failed.length} of ${results.length} item${results.length === 1 ? '' : 's'}`;
  if (failed.length === 0) return done;
  return [`${done}; ${failed.length} failed (the others are done):`, ...failed.map((f) => `- ${f.id}: ${f.error}: ${f.message}`)].join('\n');
}

/** update_item's fields, listed as names only: update_items' description points to update_item for the rest. */
const FIELDS_AS_UPDATE_ITEM = Object.fromEntries(Object.entries(UPDATE_FIELDS).map(([name, field]) => [name, listedAsAny(field)])) as typeof UPDATE_FIELDS;

const RESULTS_NOTE = 'Answers results [{id, ok, error?, message?}]; a failed id stops no other.';

export function registerBatchTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'complete_items',
    {
      description: `complete_item for 1..100 ids (a repeat counts once), one call. ${RESULTS_NOTE}`,
      input: z.object({ ids: Ids, done: z.boolean().default(true) }),
      output: Results,
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ ids, done }) =>
      guarded(async () => {
        const results = outcomesOf(ids, await ctx.api.completeMany(ids, done));
        return toolResult(summary(done ? 'Completed' : 'Reopened', results), Results, { results });
      }),
  );

  tools.add(
    'update_items',
    {
      description: `update_item for 1..100 ids, one call: its fields, same types and meaning. ${RESULTS_NOTE}`,
      input: z.object({ ids: Ids, ...FIELDS_AS_UPDATE_ITEM }),
      output: Results,
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    async ({ ids, project, ...fields }) =>
      guarded(async () => {
        const results = outcomesOf(ids, await ctx.api.updateMany(ids, await patchOf(ctx, project, fields)));
        return toolResult(summary('Updated', results), Results, { results });
      }),
  );

  tools.add(
    'list_completed',
    {
      description: 'Completed items, latest first, since (default: 7 days ago). Paged.',
      input: z.object({ since: DateTimeInput.optional(), ...PageInput }),
      output: ItemPage,
      hints: { readOnlyHint: true },
    },
    async ({ since, limit, cursor }) =>
      guarded(async () => {
        const page = await ctx.api.listCompleted({
          limit: limit ?? DEFAULT_LIMIT,
          ...(since === undefined ? {} : { since }),
          ...(cursor === undefined ? {} : { cursor }),
        });
        const items = await ctx.views(page.items);
        const more = page.next_cursor === null ? '' : ' (more: call again with cursor = next_cursor)';
        const text = describeList(`${items.length} completed item${items.length === 1 ? '' : 's'}${more}`, items, await ctx.timeZone());
        return toolResult(text, ItemPage, { items, next_cursor: page.next_cursor });
      }),
  );
}
