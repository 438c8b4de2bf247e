import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { isApiError } from './inbox-api.js';

/**
 * A successful call: the summary for the model and the same facts as structured content, read
 * through the tool's full output schema, so that what is sent is exactly what that schema says (a
 * field the API adds later is left out) and the compact schema tools/list shows describes it.
 */
export function toolResult<S extends z.ZodType<Record<string, unknown>>>(text: string, schema: S, structured: z.input<S>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: schema.parse(structured) };
}

/**
 * A failed call as a tool error (isError), never a protocol error: the model reads the API's
 * error code and message and can correct itself; the session goes on.
 */
function toolError(error: unknown): CallToolResult {
  return { content: [{ type: 'text', text: errorText(error) }], isError: true };
}

function errorText(error: unknown): string {
  if (isApiError(error)) {
    const details = (error.details ?? []).map((d) => `${d.field} ${d.message}`);
    return `${error.error}: ${error.message}${details.length > 1 ? ` (${details.join('; ')})` : ''}`;
  }
  if (error instanceof Error && error.name === 'ZodError')
    return `internal_error: the API answered in a shape this MCP server does not know (${error.message.slice(0, 300)})`;
  if (error instanceof Error && error.name === 'NetworkError') return `unavailable: ${error.message}`;
  // The service could not be reached (stdio with the server down) or answered nonsense.
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `unavailable: the Capture Inbox service could not be reached (${message}${cause})`;
}

/** Runs a tool body, turning any failure into a tool error. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error);
  }
}
