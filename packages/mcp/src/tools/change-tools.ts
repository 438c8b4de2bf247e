import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { describeItem, organizerNote } from '../format.js';
import { InboxApiError, type ItemPatch } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemStatus, OneCapturedItem, OneItem } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';

const Id = z.string().min(1).describe('The item id.');
const DeletedItem = z.object({ deleted: z.object({ id: z.string(), title: z.string().nullable() }) });

const UpdateInput = z.object({
  id: Id,
  title: z.string().max(500).nullable().optional().describe('New title; null clears it.'),
  content_md: z.string().max(100_000).nullable().optional().describe('New Markdown body; null clears it.'),
  due_at: DateTimeInput.nullable().optional().describe("New due date-time, ISO 8601 with the user's offset; null clears it."),
  project: z.string().min(1).optional().describe('Move to this project (name or id).'),
  tags: z
    .array(
      z
        .string()
        .min(1)
        .regex(/^[^,]*$/, 'a tag name has no comma'),
    )
    .max(20)
    .optional()
    .describe('The complete new set of tag names: it replaces the current tags.'),
  status: ItemStatus.optional().describe('backlog, todo, doing, done (completes the item) or archived.'),
  recurrence: z
    .object({
      rule: z
        .string()
        .min(1)
        .max(500)
        .describe('RFC 5545 RRULE: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL; e.g. FREQ=WEEKLY;BYDAY=MO'),
      from: z.enum(['due', 'completion']).describe('due: the next occurrence follows the previous due date; completion: it follows the moment of completion'),
    })
    .nullable()
    .optional()
    .describe('Make the item repeat (it needs a due_at); null ends the repetition. Completing a repeating item moves it to its next occurrence.'),
  remind_at: DateTimeInput.nullable().optional().describe("When to remind the user, ISO 8601 with the user's offset; null clears the reminder."),
});

export function registerChangeTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'update_item',
    {
      title: 'Update an item',
      description:
        'Change fields of an item; fields you leave out stay as they are. tags replaces the whole set, so pass every tag the item should keep. ' +
        'title, content_md and due_at take null to clear them. To mark an item done use complete_item; to archive it, archive_item.',
      inputSchema: UpdateInput,
      outputSchema: OneItem,
      annotations: { title: 'Update an item', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id, project, ...fields }) =>
      guarded(async () => {
        const patch: ItemPatch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        if (project !== undefined) patch.project_id = await ctx.resolveProject(project);
        const item = await ctx.view(await ctx.api.updateItem(id, patch));
        return toolResult(`Updated ${describeItem(item, await ctx.timeZone())}`, OneItem, { item });
      }),
  );

  server.registerTool(
    'snooze_item',
    {
      title: 'Snooze a reminder',
      description:
        "Remind the user about an item again later: either in `minutes` (1..10080) from now, or at `until` (ISO 8601 with the user's offset). Give exactly one.",
      inputSchema: z.object({
        id: Id,
        minutes: z.number().int().min(1).max(10080).optional().describe('Remind again this many minutes from now.'),
        until: DateTimeInput.optional().describe('Remind again at this date-time.'),
      }),
      outputSchema: OneItem,
      annotations: { title: 'Snooze a reminder', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ id, minutes, until }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.snoozeItem(id, { ...(minutes !== undefined ? { minutes } : {}), ...(until !== undefined ? { until } : {}) }));
        return toolResult(`Snoozed ${describeItem(item, await ctx.timeZone())} until ${item.remind_at ?? 'never'}`, OneItem, { item });
      }),
  );

  server.registerTool(
    'complete_item',
    {
      title: 'Complete an item',
      description:
        'Mark an item done (done: true, the default) or not done (done: false). It sets the value and never flips it, so calling it again is safe ' +
        'and an item already in that state is left as it is. An archived item stays archived.',
      inputSchema: z.object({ id: Id, done: z.boolean().default(true).describe('true: done; false: not done.') }),
      outputSchema: OneItem,
      annotations: { title: 'Complete an item', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
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

  server.registerTool(
    'archive_item',
    {
      title: 'Archive an item',
      description:
        "Archive an item: it leaves the user's active lists but is kept, and search with status archived still finds it. " +
        'Use it when the user is finished with an item or wants it out of sight; archiving an archived item changes nothing.',
      inputSchema: z.object({ id: Id }),
      outputSchema: OneItem,
      annotations: { title: 'Archive an item', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.archiveItem(id));
        return toolResult(`Archived ${describeItem(item, await ctx.timeZone())}`, OneItem, { item });
      }),
  );

  server.registerTool(
    'delete_item',
    {
      title: 'Delete an item',
      description:
        'Delete an item and its subtasks for good (there is no undo). Prefer archive_item unless the user asks to delete; ' +
        'deleting an item that is gone is a not_found error.',
      inputSchema: z.object({ id: Id }),
      outputSchema: DeletedItem,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ id }) =>
      guarded(async () => {
        const item = await ctx.view(await ctx.api.getItem(id));
        await ctx.api.deleteItem(id);
        return toolResult(`Deleted ${describeItem(item, await ctx.timeZone())}`, DeletedItem, { deleted: { id: item.id, title: item.title } });
      }),
  );

  server.registerTool(
    'organize_item',
    {
      title: 'Organize an item',
      description:
        "Run the server's AI organizer on an existing item (Pro plan; counts against a daily quota): it decides note or todo, moves an Inbox item " +
        'to a matching project and reads a due date from the title when it has none. For new text, capture with organize: true does the same in one call.',
      inputSchema: z.object({ id: Id }),
      outputSchema: OneCapturedItem,
      annotations: { title: 'Organize an item', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
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
