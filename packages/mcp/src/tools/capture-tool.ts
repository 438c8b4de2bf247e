import { z } from 'zod';
import { describeItem, organizerNote, quoteTitle } from '../format.js';
import { InboxApiError, isApiError, type Item } from '../inbox-api.js';
import { guarded, toolResult } from '../results.js';
import { DateTimeInput, ItemType, OneCapturedItem } from '../schemas.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

/** The contract's limit on one batch (POST /capture/batch): at most this many items a call. */
const ITEMS_MAX = 100;

const CaptureOutput = z.object({
  item: OneCapturedItem.shape.item.optional(),
  items: z.array(OneCapturedItem.shape.item).optional(),
});

const CaptureInput = z.object({
  text: z.string().min(1).optional().describe('Line 1: title (quick add); the rest: body.'),
  items: z.array(z.string().min(1)).min(1).max(ITEMS_MAX).optional().describe('Instead of text: many, each as text.'),
  parse: z.boolean().optional().describe('false: no quick add, store as typed.'),
  organize: z.boolean().optional(),
  project: z.string().optional().describe('Name or id; default Inbox.'),
  due: DateTimeInput.optional(),
  all_day: z.boolean().optional().describe('With due: due on its date, no time.'),
  tags: z.array(z.string()).max(20).optional(),
  type: ItemType.optional(),
  parent: z.string().min(1).optional().describe('Parent item id: a subtask (needs read, write).'),
});

export function registerCaptureTool(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'capture',
    {
      description:
        'Save a new item. Quick add reads the first line: "Call Sam friday 3pm #Work @calls" goes to Work, ' +
        'tag calls, due Fri 15:00 user time; "every monday 9am" repeats. Given fields win. due: ISO 8601, user\'s offset. ' +
        'organize: the AI files and dates it (Pro). Do not repeat a success.',
      input: CaptureInput,
      output: CaptureOutput,
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    async (input) =>
      guarded(async () => {
        if ((input.text === undefined) === (input.items === undefined))
          throw new InboxApiError(400, 'bad_request', 'give text (one item) or items (a list), not both');
        const parent = input.parent === undefined ? undefined : await parentOf(ctx, input.parent);
        const projectId = input.project === undefined ? parent?.project_id : await ctx.resolveProject(input.project);
        const one = async (text: string) => {
          const captured = await ctx.api.capture({
            text,
            parse: input.parse ?? true,
            ...(input.tags !== undefined && input.tags.length > 0 ? { tags: input.tags } : {}),
            ...(projectId !== undefined ? { project_id: projectId } : {}),
            ...(input.type !== undefined ? { type: input.type } : {}),
            ...(input.organize !== undefined ? { organize: input.organize } : {}),
            ...(input.due !== undefined ? { due_at: input.due, ...(input.all_day !== undefined ? { all_day: input.all_day } : {}) } : {}),
          });
          const item = parent === undefined ? captured : { ...(await placeUnder(ctx, captured, parent)), ai: captured.ai };
          if (item.ai) ctx.invalidateProjects();
          return { item, view: await ctx.view(item) };
        };
        const under = parent === undefined ? '' : `, subtask of ${quoteTitle(parent.title)}`;
        const zone = await ctx.timeZone();
        if (input.text !== undefined) {
          const { item, view } = await one(input.text);
          return toolResult(`Captured ${describeItem(view, zone, `${under}${organizerNote(item.ai)}`)}`, CaptureOutput, { item: view });
        }
        // One by one, in order, each as text would be (a string may hold a body on its lines, which a batch would split).
        const made: Awaited<ReturnType<typeof one>>[] = [];
        for (const text of input.items ?? []) {
          try {
            made.push(await one(text));
          } catch (error) {
            if (made.length === 0 || !isApiError(error)) throw error;
            throw new InboxApiError(
              error.status,
              error.error,
              `${error.message}; item ${made.length + 1} was not captured, the ${made.length} before it were (ids ${made.map((m) => m.item.id).join(', ')})`,
            );
          }
        }
        const lines = made.map(({ item, view }) => `- ${describeItem(view, zone, `${under}${organizerNote(item.ai)}`)}`);
        return toolResult([`Captured ${made.length} items:`, ...lines].join('\n'), CaptureOutput, { items: made.map((m) => m.view) });
      }),
  );
}

/** The parent of a new subtask, read before anything is captured: an unknown id or a key that could not place the subtask changes nothing. */
async function parentOf(ctx: ToolContext, id: string): Promise<Item> {
  await ctx.requireScope('write', 'placing a subtask under its parent');
  return ctx.api.getItem(id);
}

/**
 * The API captures top-level items; a subtask is a capture then a PATCH of parent_id (as the web
 * app's "add subtask" does). Should the PATCH be refused (the parent deleted meanwhile), the new
 * item is deleted again so that a retry does not leave a stray copy.
 */
async function placeUnder(ctx: ToolContext, item: Item, parent: Item): Promise<Item> {
  try {
    return await ctx.api.updateItem(item.id, { parent_id: parent.id });
  } catch (error) {
    const removed = await ctx.api.deleteItem(item.id).then(
      () => true,
      () => false,
    );
    if (removed || !isApiError(error)) throw error;
    throw new InboxApiError(
      error.status,
      error.error,
      `${error.message}; the item was captured (id ${item.id}) but is not a subtask: use update_item with parent_id`,
    );
  }
}
