import { z } from 'zod';
import { describeItem, organizerNote } from '../format.js';
import { InboxApiError, type ItemPatch } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemStatus, OneCapturedItem, OneItem } from '../schemas.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const Id = z.string().min(1);
const DeletedItem = z.object({ deleted: z.object({ id: z.string(), title: z.string().nullable() }) });

const UpdateInput = z.object({
  id: Id,
  title: z.string().nullable().optional(),
  content_md: z.string().nullable().optional().describe('Markdown body.'),
  due_at: DateTimeInput.nullable().optional(),
  all_day: z.boolean().optional().describe('Due on the date of due_at, no time (needs a due date); a new due_at alone keeps it.'),
  project: z.string().optional().describe('Move to this project (name or id).'),
  tags: z.array(z.string()).max(20).optional().describe('The whole new set.'),
  status: ItemStatus.optional(),
  recurrence: z
    .object({ rule: z.string(), from: z.enum(['due', 'completion']) })
    .nullable()
    .optional()
    .describe('Repeat (needs due_at): an RRULE (FREQ=WEEKLY;BYDAY=MO), counted from the due date or completion.'),
  remind_at: DateTimeInput.nullable().optional(),
  parent_id: z.string().min(1).nullable().optional().describe('Make it a subtask of this item; null: top level.'),
});

export function registerChangeTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'update_item',
    {
      description: 'Change the fields given; null clears one; tags replaces the set. To complete use complete_item.',
      input: UpdateInput,
      output: OneItem,
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    async ({ id, project, ...fields }) =>
      guarded(async () => {
        const patch: ItemPatch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        if (project !== undefined) patch.project_id = await ctx.resolveProject(project);
        const item = await ctx.view(await ctx.api.updateItem(id, patch));
        return toolResult(`Updated ${describeItem(item, await ctx.timeZone())}`, OneItem, { item });
      }),
  );

  tools.add(
    'snooze_item',
    {
      description: 'Remind the user about an item again later: give minutes from now or until.',
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
      description: 'Set an item done (the default) or not done: it sets, never flips, so repeating is safe. An archived item stays archived.',
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
      description: 'Hide an item, kept (search with status archived finds it); repeating changes nothing.',
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
      description: 'Delete an item and its subtasks, no undo. Prefer archive_item unless the user asks to delete.',
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
      description: "Run the server's AI organizer on an item (Pro, daily quota): note or todo, project, due date from the title.",
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
