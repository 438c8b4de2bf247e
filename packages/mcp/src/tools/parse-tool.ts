import { z } from 'zod';
import { guarded, toolResult } from '../results.js';
import { listedAsObject, type ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const ParseInput = z.object({ text: z.string().min(1) });

const Span = listedAsObject(
  z.object({
    kind: z.enum(['project', 'tag', 'date', 'recurrence']),
    start: z.number().int(),
    end: z.number().int(),
    text: z.string(),
    value: z.string(),
  }),
);

const QuickAddView = z.object({
  title: z.string(),
  content_md: z.string().nullable(),
  due_at: z.string().nullable(),
  all_day: z.boolean().optional(),
  project_id: z.string().nullable(),
  tags: z.array(z.string()),
  recurrence: listedAsObject(z.object({ rule: z.string(), from: z.enum(['due', 'completion']) })).nullable(),
  spans: z.array(Span),
});

export function registerParseTool(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'parse_text',
    {
      description: 'What capture would read from a text with quick add (#Project, @tag, dates, every …), storing nothing.',
      input: ParseInput,
      output: QuickAddView,
      hints: { readOnlyHint: true },
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
