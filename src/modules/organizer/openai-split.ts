import type { Logger } from 'pino';
import { AnswerError, askForJson, failureReason, type OpenAiChatOptions } from './openai-chat.js';

export interface OpenAiSplitOptions extends OpenAiChatOptions {
  logger: Logger;
}

/** More than the 100 items a brain dump holds is refused by the caller; this only bounds what is read. */
const PIECES_READ_MAX = 101;

const SYSTEM_PROMPT = [
  'You split one captured text from a personal inbox into the separate items (todos or notes) it holds.',
  'Answer with one JSON object and nothing else: {"items": [string, ...]}.',
  '- Each string is copied verbatim from the text, character for character: never rephrase, fix, translate or add words.',
  '- The strings are in text order and do not overlap; leave out only joining words between items ("and then", "also").',
  '- Keep the date, #project and @tag words of an item with it (e.g. "call mom tomorrow").',
  '- A text about one thing is one item: answer {"items": [<the whole text>]}.',
].join('\n');

/** The answer's `items`, checked to be strings; throws AnswerError on anything else. */
function readPieces(answer: unknown): string[] {
  const items = (answer as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length > PIECES_READ_MAX || !items.every((i): i is string => typeof i === 'string')) {
    throw new AnswerError(`the message is not {"items": [string]} of at most ${PIECES_READ_MAX - 1} strings`);
  }
  return items;
}

/**
 * Asks an OpenAI-compatible chat-completions API for the items of a prose text, as verbatim
 * pieces. Every failure (down, slow, an error status, an answer of another shape) is logged and
 * answers null: the caller keeps the text one item. Whether the pieces are the text's own words
 * is the caller's check (quick-add/split-prose.ts).
 */
export function createOpenAiSplitter(options: OpenAiSplitOptions): (text: string) => Promise<string[] | null> {
  return async (text) => {
    try {
      return readPieces(await askForJson(options, SYSTEM_PROMPT, text));
    } catch (error) {
      const reason = failureReason(error, options.timeoutMs);
      options.logger.warn({ engine: 'openai', model: options.model, reason }, 'brain dump: the openai split failed; the text stays one item');
      return null;
    }
  };
}
