import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createInboxMcpServer, type InboxMcpServerOptions } from './server.js';

/**
 * Answers one Streamable HTTP request statelessly: a fresh server and transport, closed when the
 * answer is ready. No session id is issued, so any process of a deployment can answer any request
 * and nothing is kept for a client that never comes back. Answers are JSON, not SSE streams: the
 * tools send no notifications while they run.
 */
export async function answerMcpRequest(options: InboxMcpServerOptions, request: Request): Promise<Response> {
  const server = createInboxMcpServer(options);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
