import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFetchInboxApi } from './fetch-inbox-api.js';
import { createInboxMcpServer } from './server.js';

export interface StdioOptions {
  baseUrl: string;
  token: string;
}

/**
 * Serves the tools on stdin/stdout until stdin ends (the client went away). stdout carries only
 * protocol messages; anything for a person goes to stderr.
 */
export async function runStdioServer({ baseUrl, token }: StdioOptions): Promise<void> {
  const server = createInboxMcpServer({ api: createFetchInboxApi({ baseUrl, token }) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  await closed;
}
