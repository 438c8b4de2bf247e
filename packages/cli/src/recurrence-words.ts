import type { CaptureInbox } from '@capture-inbox/sdk';
import { UsageError } from './command.js';

export interface EveryResult {
  recurrence: { rule: string; from: 'due' | 'completion' } | null;
  /** The rule's first occurrence, when the words named one (used when the item has no due date). */
  firstDue: string | null;
}

/**
 * `--every RULE`: an RRULE as it is (`FREQ=WEEKLY;BYDAY=MO`, `every!` style with `!` before it counts
 * from completion), or quick-add words (`every monday 9am`) read by the server's grammar (POST /parse),
 * so the CLI never reads recurrences differently from the rest of the product. `none` ends it.
 */
export async function readEvery(inbox: CaptureInbox, text: string): Promise<EveryResult> {
  const words = text.trim();
  if (/^(none|never|clear)$/i.test(words)) return { recurrence: null, firstDue: null };
  const rrule = /^(!)?(RRULE:)?(FREQ=.+)$/i.exec(words);
  if (rrule) return { recurrence: { rule: rrule[3]!.toUpperCase(), from: rrule[1] ? 'completion' : 'due' }, firstDue: null };
  const phrase = /^every/i.test(words) ? words : `every ${words}`;
  const parsed = await inbox.items.parse(`x ${phrase}`);
  if (!parsed.recurrence) throw new UsageError(`--every: "${text}" is not a recurrence (try "every monday 9am", "every 2 weeks" or FREQ=DAILY)`);
  return { recurrence: parsed.recurrence, firstDue: parsed.due_at };
}
