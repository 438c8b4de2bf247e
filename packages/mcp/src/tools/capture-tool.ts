import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { describeItem, organizerNote } from '../format.js';
import { InboxApiError, isApiError, type CapturedItem } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemType, OneCapturedItem } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';

const CaptureInput = z.object({
  text: z.string().min(1).describe("The user's words, as they said them. The first line becomes the title, the rest the note body."),
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
    .describe('Tag names; unknown names are created. Needs a key with the write scope.'),
  type: ItemType.optional().describe('todo (the default) or note.'),
});

export function registerCaptureTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'capture',
    {
      title: 'Capture an item',
      description:
        'Save something the user wants to remember or do as a new item in their Capture Inbox: "remind me to call the dentist Friday", "note that…", "add milk to my list". ' +
        "Pass their words as text. If you can tell the project, due date, tags or type, pass them yourself (due as ISO 8601 with the user's offset) and leave organize off. " +
        'Set organize: true instead when the text holds a date or topic you did not parse, so the server files and dates it (Pro plan); fields you pass explicitly are kept. ' +
        'Each call creates a new item: do not call it again to retry a call that succeeded.',
      inputSchema: CaptureInput,
      outputSchema: OneCapturedItem,
      annotations: { title: 'Capture an item', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) =>
      guarded(async () => {
        const projectId = input.project === undefined ? undefined : await ctx.resolveProject(input.project);
        const captured = await ctx.api.capture({
          text: input.text,
          ...(projectId !== undefined ? { project_id: projectId } : {}),
          ...(input.type !== undefined ? { type: input.type } : {}),
          ...(input.organize !== undefined ? { organize: input.organize } : {}),
          ...(input.due !== undefined ? { due_at: input.due } : {}),
        });
        let item: CapturedItem = captured;
        if (input.tags && input.tags.length > 0) {
          // Capture takes no tags; they are set on the new item, and a failure says it exists.
          try {
            item = { ...(await ctx.api.updateItem(captured.id, { tags: input.tags })), ai: captured.ai };
          } catch (error) {
            if (!isApiError(error)) throw error;
            throw new InboxApiError(
              error.status,
              error.error,
              `${error.message} (the item was captured as ${captured.id} without its tags; do not capture it again)`,
              error.details,
            );
          }
        }
        if (captured.ai) ctx.invalidateProjects();
        const view = await ctx.view(item);
        const line = `Captured ${describeItem(view, await ctx.timeZone(), organizerNote(item.ai))}`;
        return toolResult(line, OneCapturedItem, { item: view });
      }),
  );
}
