import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { describeItem, organizerNote } from '../format.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemType, OneCapturedItem } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';

const CaptureInput = z.object({
  text: z
    .string()
    .min(1)
    .describe(
      "The user's words. The first line becomes the title, the rest the note body. With parse (the default) the first line may carry quick add: " +
        '#Project (an existing project; #"Two words"), @tag, a date or time in words (friday 3pm, tomorrow eod) and a repeat (every monday 9am, every! 2 weeks).',
    ),
  parse: z
    .boolean()
    .optional()
    .describe('Read quick add in the first line (default true; free, no AI). false stores the text exactly as given. Fields you pass explicitly win.'),
  organize: z
    .boolean()
    .optional()
    .describe(
      "Let the server's AI organizer (Pro plan; counts against a daily quota) classify the item, file it into a matching project and read a due date from words " +
        "like 'Friday 9am' in the user's time zone. Leave it off when you pass project, due and type yourself.",
    ),
  project: z.string().min(1).optional().describe('Project name (case-insensitive) or id. Omitted: the Inbox.'),
  due: DateTimeInput.optional().describe("Due date-time, ISO 8601 with the user's UTC offset, e.g. 2026-11-28T09:00:00+01:00."),
  tags: z
    .array(
      z
        .string()
        .min(1)
        .regex(/^[^,]*$/, 'a tag name has no comma'),
    )
    .max(20)
    .optional()
    .describe('Tag names; unknown names are created. Given, they replace the @tags quick add reads.'),
  type: ItemType.optional().describe('todo (the default) or note.'),
});

export function registerCaptureTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'capture',
    {
      title: 'Capture an item',
      description:
        'Save something the user wants to remember or do as a new item in their Capture Inbox: "remind me to call the dentist Friday", "note that…", "add milk to my list". ' +
        'Pass their words as text. Quick add reads the first line (no AI, every plan): write "Call Sam friday 3pm #Work @calls" and it is filed into Work, tagged calls ' +
        'and due Friday 15:00 in the user\'s zone, those words cut from the title; "every monday 9am" or "every! 2 weeks" (from completion) make it repeat; parse_text shows what it reads. ' +
        "You may also pass project, due date (ISO 8601 with the user's offset), tags or type yourself: they win over the text. " +
        'Set organize: true instead when the text holds a date or topic you did not parse, so the server files and dates it (Pro plan); fields you pass explicitly are kept. ' +
        'Each call creates a new item: do not call it again to retry a call that succeeded.',
      inputSchema: CaptureInput,
      outputSchema: OneCapturedItem,
      annotations: { title: 'Capture an item', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) =>
      guarded(async () => {
        const projectId = input.project === undefined ? undefined : await ctx.resolveProject(input.project);
        const item = await ctx.api.capture({
          text: input.text,
          parse: input.parse ?? true,
          ...(input.tags !== undefined && input.tags.length > 0 ? { tags: input.tags } : {}),
          ...(projectId !== undefined ? { project_id: projectId } : {}),
          ...(input.type !== undefined ? { type: input.type } : {}),
          ...(input.organize !== undefined ? { organize: input.organize } : {}),
          ...(input.due !== undefined ? { due_at: input.due } : {}),
        });
        if (item.ai) ctx.invalidateProjects();
        const view = await ctx.view(item);
        const line = `Captured ${describeItem(view, await ctx.timeZone(), organizerNote(item.ai))}`;
        return toolResult(line, OneCapturedItem, { item: view });
      }),
  );
}
