import { badRequest } from '../../errors.js';
import { readQuickAdd, type GrammarContext, type QuickAdd } from './grammar.js';
import { splitCapturedText } from '../../lib/capture-text.js';
import { SPLIT_ITEMS_MAX, splitLines, type SplitLine } from './split-lines.js';

const ITEM_TAGS_MAX = 20;
const UNREAD = { due_at: null, all_day: false, project_id: null, tags: [], recurrence: null, spans: [] } as const satisfies Omit<
  QuickAdd,
  'title' | 'content_md'
>;

/** One item of a split text as quick add read it: spans count over the whole text. */
export interface SplitItem extends QuickAdd {
  parent_index: number | null;
  is_completed: boolean;
}

/**
 * Quick add over each item of the split, a heading's project and tags applied to the lines under
 * it (an item naming its own project keeps it). Over SPLIT_ITEMS_MAX items is refused here, so a
 * preview never shows a list the batch would refuse. `lines` is the deterministic split unless a
 * model split the prose (split-prose.ts).
 */
export function readSplit(
  text: string,
  ctx: GrammarContext,
  options: { quickAdd: boolean } = { quickAdd: true },
  lines: readonly SplitLine[] = splitLines(text),
): SplitItem[] {
  if (lines.length > SPLIT_ITEMS_MAX) {
    throw badRequest(`a brain dump holds at most ${SPLIT_ITEMS_MAX} items; this text splits into ${lines.length}`, 'text');
  }
  const items: SplitItem[] = [];
  for (const line of lines) {
    // Without quick add (a batch with parse: false) each line is stored as typed.
    const read = options.quickAdd ? readQuickAdd(line.text, ctx) : { ...splitCapturedText(line.text), ...UNREAD };
    const parent = line.parent_index === null ? undefined : items[line.parent_index];
    const tags = new Map<string, string>();
    for (const name of [...(parent?.tags ?? []), ...read.tags]) if (!tags.has(name.toLowerCase())) tags.set(name.toLowerCase(), name);
    items.push({
      ...read,
      project_id: read.project_id ?? parent?.project_id ?? null,
      // An item holds at most 20 tags (as PATCH takes them); its heading's come first.
      tags: [...tags.values()].slice(0, ITEM_TAGS_MAX),
      spans: read.spans.map((span) => ({ ...span, start: span.start + line.start, end: span.end + line.start })),
      parent_index: line.parent_index,
      is_completed: line.is_completed,
    });
  }
  return items;
}
