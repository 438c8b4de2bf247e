import { createHash } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import { SPLIT_ITEMS_MAX, type SplitLine } from './split-lines.js';

/**
 * The contract's "the model may split prose into items" (decision 0099): prose that the
 * deterministic split leaves whole may be cut by a model into the items it holds. The model's
 * pieces are located in the text, so an item is always words the user wrote, at their offsets.
 */

/**
 * Longer prose stays one item without a model call: a capture may hold 100,000 characters, and a
 * ramble of a few items fits well within this (the organizer sends at most 4,000 of a body too).
 */
export const PROSE_SENT_MAX = 4000;

/** A model asked for the items in a prose text: verbatim pieces in text order, or null when it failed. */
export type AskForPieces = (text: string) => Promise<readonly string[] | null>;

/** The prose split as quick add uses it: the items' lines, or null to keep the text one item. */
export interface ProseSplitter {
  splitProse(userId: string, text: string): Promise<SplitLine[] | null>;
}

/**
 * The pieces as lines of the text, or null unless every piece (trimmed) is found verbatim, in
 * order and without overlap, and there are 2 to SPLIT_ITEMS_MAX of them. Each piece is searched
 * from the end of the previous one, so a repeated phrase maps to its next occurrence.
 */
export function locatePieces(text: string, pieces: readonly string[]): SplitLine[] | null {
  if (pieces.length < 2 || pieces.length > SPLIT_ITEMS_MAX) return null;
  const lines: SplitLine[] = [];
  let from = 0;
  for (const piece of pieces) {
    const words = piece.trim();
    if (words === '') return null;
    const start = text.indexOf(words, from);
    if (start < 0) return null;
    lines.push({ text: words, start, parent_index: null, is_completed: false });
    from = start + words.length;
  }
  return lines;
}

export interface ProseSplitterOptions {
  ask: AskForPieces;
  /** Counts one model call against the user's daily AI quota; throws when it is used up. */
  consumeAiRun: (user: { id: string }) => Promise<void>;
  clock: Clock;
  /** How long a model's split of a text is reused: the preview and the batch that follows it get the same. */
  keepMs: number;
  /** At most this many splits are kept; the oldest goes first. */
  keepMax: number;
}

interface Kept {
  lines: SplitLine[] | null;
  until: number;
}

/**
 * The model's split of a text, kept per user and text for `keepMs`: a batch captured after its
 * preview stores the split the preview showed without asking the model again (which might answer
 * differently), and a preview redrawn for the same text costs no second call. A failed call is
 * kept too (the text stays one item in the preview and in the batch alike). A used-up quota is no
 * model call and no error: the text stays one item, as on the local engine.
 */
export function createProseSplitter(options: ProseSplitterOptions): ProseSplitter {
  const kept = new Map<string, Kept>();
  return {
    async splitProse(userId, text) {
      if (text.length > PROSE_SENT_MAX) return null;
      const key = createHash('sha256').update(userId).update('\0').update(text).digest('base64url');
      const now = options.clock.now().getTime();
      const hit = kept.get(key);
      if (hit && hit.until > now) return hit.lines;
      kept.delete(key);
      try {
        await options.consumeAiRun({ id: userId });
      } catch {
        return null;
      }
      const pieces = await options.ask(text);
      const lines = pieces === null ? null : locatePieces(text, pieces);
      while (kept.size >= options.keepMax) kept.delete(kept.keys().next().value!);
      kept.set(key, { lines, until: now + options.keepMs });
      return lines;
    },
  };
}
