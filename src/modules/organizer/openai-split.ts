import type { Logger } from 'pino';

export interface OpenAiSplitOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** Outbound HTTP, injected so tests talk to a fake server and nothing else. */
  fetch: typeof fetch;
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

class AnswerError extends Error {
  override readonly name = 'AnswerError';
}

/** The message's `items`, checked to be strings; throws AnswerError on anything else. */
function readPieces(body: unknown): string[] {
  const content = (body as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new AnswerError('the answer has no choices[0].message.content string');
  // Some models wrap JSON in a Markdown fence even when asked not to.
  const json = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let answer: unknown;
  try {
    answer = JSON.parse(json);
  } catch {
    throw new AnswerError('the message is not JSON');
  }
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
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function ask(text: string): Promise<string[]> {
    const response = await options.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: text },
        ],
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const raw = await response.text();
    if (!response.ok) throw new AnswerError(`HTTP ${response.status}`);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new AnswerError('the response body is not JSON');
    }
    return readPieces(body);
  }

  return async (text) => {
    try {
      return await ask(text);
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${options.timeoutMs} ms`
          : error instanceof Error
            ? error.message
            : String(error);
      options.logger.warn({ engine: 'openai', model: options.model, reason }, 'brain dump: the openai split failed; the text stays one item');
      return null;
    }
  };
}
