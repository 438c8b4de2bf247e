import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createInboxApi } from './sdk-inbox-api.js';
import { createInboxMcpServer } from './server.js';

/** A tool call waits for at most a short Retry-After; a longer one is answered as the tool error it is. */
const STDIO_RETRY = { retries: 2, maxDelayMs: 10_000 };

export interface StdioOptions {
  baseUrl: string;
  token: string;
  /** Ends the server (Ctrl-C in `cin mcp`). */
  signal?: AbortSignal;
  /** Only the tools that read (`cin mcp --read-only`, the twin of `/mcp/read`). */
  readOnly?: boolean;
}

/**
 * Serves the tools on stdin/stdout until stdin ends (the client went away). stdout carries only
 * protocol messages; anything for a person goes to stderr.
 */
export async function runStdioServer({ baseUrl, token, signal, readOnly = false }: StdioOptions): Promise<void> {
  const server = createInboxMcpServer({ api: createInboxApi({ baseUrl, token, retry: STDIO_RETRY }), readOnly });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  signal?.addEventListener('abort', () => void server.close(), { once: true });
  await closed;
}
