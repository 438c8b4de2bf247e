import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, toolResult } from '../results.js';
import type { ToolContext } from '../tool-context.js';

const ParseInput = z.object({
  text: z.string().min(1).describe('The text you would pass to capture. Only its first line is read.'),
});

const Span = z.object({
  kind: z.enum(['project', 'tag', 'date', 'recurrence']),
  start: z.number().int().describe('UTF-16 offset in text'),
  end: z.number().int(),
  text: z.string().describe('the words as typed'),
  value: z.string().describe('the project id, the tag name, the UTC instant or the RRULE'),
});

const QuickAddView = z.object({
  title: z.string(),
  content_md: z.string().nullable(),
  due_at: z.string().nullable().describe('UTC ISO 8601'),
  project_id: z.string().nullable(),
  tags: z.array(z.string()),
  recurrence: z.object({ rule: z.string().describe('RFC 5545 RRULE'), from: z.enum(['due', 'completion']) }).nullable(),
  spans: z.array(Span),
});

export function registerParseTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'parse_text',
    {
      title: 'Preview quick add',
      description:
        'Show what capture would read from a text with quick add, without saving anything: #Project (existing projects only), @tags, a due date from words ' +
        "(in the user's time zone) and a repeat rule (every monday 9am, every! 2 weeks), each with the words it came from. Use it to check before capturing.",
      inputSchema: ParseInput,
      outputSchema: QuickAddView,
      annotations: { title: 'Preview quick add', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) =>
      guarded(async () => {
        const parsed = await ctx.api.parse(input.text);
        const read = parsed.spans.map((s) => `${s.kind} '${s.text}' → ${s.value}`);
        const line =
          read.length === 0 ? `Nothing understood: '${parsed.title}' would be stored as typed` : `Would capture '${parsed.title}': ${read.join('; ')}`;
        return toolResult(line, QuickAddView, parsed);
      }),
  );
}
