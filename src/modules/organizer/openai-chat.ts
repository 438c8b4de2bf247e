/** One OpenAI-compatible chat-completions API, as the organizer's engine and the prose split call it. */
export interface OpenAiChatOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** Outbound HTTP, injected so tests talk to a fake server and nothing else. */
  fetch: typeof fetch;
}

/** An answer the caller cannot use; its message is the reason logged. */
export class AnswerError extends Error {
  override readonly name = 'AnswerError';
}

/**
 * One JSON-mode completion at temperature 0; answers the message parsed as JSON, or throws
 * (AnswerError for a status, body or message that is not what was asked; TimeoutError past
 * `timeoutMs`; a network error).
 */
export async function askForJson(options: OpenAiChatOptions, system: string, user: string): Promise<unknown> {
  const response = await options.fetch(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
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
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    }),
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new AnswerError(`HTTP ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AnswerError('the response body is not JSON');
  }
  const content = (body as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new AnswerError('the answer has no choices[0].message.content string');
  // Some models wrap JSON in a Markdown fence even when asked not to.
  const json = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(json);
  } catch {
    throw new AnswerError('the message is not JSON');
  }
}

/** Why a call failed, for the log line (never the key). */
export function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return error instanceof Error ? error.message : String(error);
}
