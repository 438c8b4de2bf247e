import { z } from 'zod';
import { describeItem, organizerNote } from '../format.js';
import { InboxApiError, type ItemPatch } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemStatus, OneCapturedItem, OneItem } from '../schemas.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const Id = z.string().min(1);
const DeletedItem = z.object({ deleted: z.object({ id: z.string(), title: z.string().nullable() }) });

/**
 * update_item's fields, without descriptions: update_items takes the same fields and says so once
 * rather than repeating every description (tools/list stays under 10 KiB).
 */
export const UPDATE_FIELDS = {
  title: z.string().nullable().optional(),
  content_md: z.string().nullable().optional(),
  due_at: DateTimeInput.nullable().optional(),
  all_day: z.boolean().optional(),
  project: z.string().optional(),
  tags: z.array(z.string()).max(20).optional(),
  status: ItemStatus.optional(),
  recurrence: z
    .object({ rule: z.string(), from: z.enum(['due', 'completion']) })
    .nullable()
    .optional(),
  remind_at: DateTimeInput.nullable().optional(),
  parent_id: z.string().min(1).nullable().optional(),
};

const UpdateInput = z.object({
  id: Id,
  ...UPDATE_FIELDS,
  content_md: UPDATE_FIELDS.content_md.describe('Markdown body.'),
  all_day: UPDATE_FIELDS.all_day.describe('Date only, no time (needs due_at); kept when only due_at changes.'),
  project: UPDATE_FIELDS.project.describe('Move to this project (name or id).'),
  tags: UPDATE_FIELDS.tags.describe('The whole new set.'),
  recurrence: UPDATE_FIELDS.recurrence.describe('Repeat (needs due_at): RRULE (FREQ=WEEKLY;BYDAY=MO), from due date or completion.'),
  parent_id: UPDATE_FIELDS.parent_id.describe('Make it a subtask of this item; null: top level.'),
});

/** update_item's fields as the API's PATCH body: left-out fields left out, a project name resolved to its id. */
export async function patchOf(ctx: ToolContext, project: string | undefined, fields: Record<string, unknown>): Promise<ItemPatch> {
  const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ItemPatch;
  if (project !== undefined) patch.project_id = await ctx.resolveProject(project);
  return patch;
}

export function registerChangeTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'update_item',
    {
      description: 'Change the fields given; null clears; tags replaces the set. Completing: complete_item.',
      input: UpdateInput,
      output: OneItem,
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    async ({ id, project, ...fields }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.updateItem(id, await patchOf(ctx, project, fields)));
        return toolResult(`Updated ${describeItem(item, await ctx.timeZone())}`, OneItem, { item });
      }),
  );

  tools.add(
    'snooze_item',
    {
      description: 'Remind about an item again later: minutes from now, or until.',
      input: z.object({
        id: Id,
        minutes: z.number().int().min(1).max(10080).optional(),
        until: DateTimeInput.optional(),
      }),
      output: OneItem,
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    async ({ id, minutes, until }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.snoozeItem(id, { ...(minutes !== undefined ? { minutes } : {}), ...(until !== undefined ? { until } : {}) }));
        return toolResult(`Snoozed ${describeItem(item, await ctx.timeZone())} until ${item.remind_at ?? 'never'}`, OneItem, { item });
      }),
  );

  tools.add(
    'complete_item',
    {
      description: 'Set done (default) or not done; sets, never flips: safe to repeat. Archived stays archived.',
      input: z.object({ id: Id, done: z.boolean().default(true) }),
      output: OneItem,
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ id, done }) =>
      guarded(async () => {
        // The bulk toggle with a target value is the API's one "set, don't flip" call.
        const result = await ctx.api.setCompleted(id, done);
        const failure = result.failures[0];
        if (failure) throw new InboxApiError(failure.error === 'not_found' ? 404 : 400, failure.error, failure.message);
        const item = await ctx.view(await ctx.api.getItem(id));
        return toolResult(`${done ? 'Completed' : 'Reopened'} ${describeItem(item, await ctx.timeZone())}`, OneItem, { item });
      }),
  );

  tools.add(
    'archive_item',
    {
      description: 'Hide an item, kept (search status archived finds it); safe to repeat.',
      input: z.object({ id: Id }),
      output: OneItem,
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    async ({ id }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.archiveItem(id));
        return toolResult(`Archived ${describeItem(item, await ctx.timeZone())}`, OneItem, { item });
      }),
  );

  tools.add(
    'delete_item',
    {
      description: 'Delete an item and its subtasks, no undo. Prefer archive_item unless asked to delete.',
      input: z.object({ id: Id }),
      output: DeletedItem,
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    async ({ id }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.getItem(id));
        await ctx.api.deleteItem(id);
        return toolResult(`Deleted ${describeItem(item, await ctx.timeZone())}`, DeletedItem, { deleted: { id: item.id, title: item.title } });
      }),
  );

  tools.add(
    'organize_item',
    {
      description: 'The AI organizer on an item (Pro, daily quota): type, project, due date from the title.',
      input: z.object({ id: Id }),
      output: OneCapturedItem,
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    async ({ id }) =>
      guarded(async () => {
        const organized = await ctx.api.organizeItem(id);
        ctx.invalidateProjects();
        const item = await ctx.view(organized);
        return toolResult(`Organized ${describeItem(item, await ctx.timeZone(), organizerNote(organized.ai))}`, OneCapturedItem, { item });
      }),
  );
}
