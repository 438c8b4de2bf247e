import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../container.js';
import { authUser, installBearerAuth } from '../../plugins/auth.js';
import { installScopes } from '../../plugins/scopes.js';
import { injectFetch } from './inject-fetch.js';
import { KeyCaches } from './key-caches.js';
import { McpLoad, type McpLoadLimits } from './mcp-load.js';
import { jsonRpcError, sendWebResponse, toWebRequest } from './web-bridge.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The MCP requests in flight in this process. */
    mcpLoad: McpLoad;
  }
}

const MCP_PATH = '/mcp';
/** The same server with only the tools that read (readOnlyHint): for agents that must change nothing. */
const MCP_READ_PATH = '/mcp/read';
const BEARER = /^Bearer +([^\s]+) *$/i;
/** The tools reach the API in-process; the host is never resolved. */
const IN_PROCESS_URL = 'http://in-process.invalid';

// The MCP SDK and zod take a third of a second to import: loaded on the first /mcp request, so a
// server that no agent uses starts as fast as before.
let mcpPackage: Promise<typeof import('@capture-inbox/mcp')> | undefined;
const loadMcpPackage = () => (mcpPackage ??= import('@capture-inbox/mcp'));

/**
 * The hosted MCP endpoint (Streamable HTTP, stateless): each POST gets a fresh MCP server whose
 * tools call this app's own API with the caller's key, so the key's user, scopes and rate limits
 * apply to every tool call exactly as to a direct API call. Nothing outlives a request, so any
 * worker or instance can answer any request, and a client that vanishes leaves nothing behind.
 */
export async function installMcp(app: FastifyInstance, { keys, load: loadLimits }: Pick<Services, 'keys'> & { load: McpLoadLimits }): Promise<void> {
  const load = new McpLoad(loadLimits);
  app.decorate('mcpLoad', load);
  const caches = new KeyCaches();

  await app.register(async (mcp) => {
    // The SDK reads the body itself, so a malformed message gets the JSON-RPC error it defines.
    mcp.removeAllContentTypeParsers();
    mcp.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    installBearerAuth(mcp, keys);
    installScopes(mcp);
    // RFC 6750: a 401 names the scheme, so an MCP client knows to send a bearer key.
    mcp.addHook('onSend', (_request, reply, payload, done) => {
      if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) void reply.header('www-authenticate', 'Bearer realm="capture-inbox"');
      done(null, payload);
    });

    const answer = async (request: FastifyRequest<{ Body: string | undefined }>, reply: FastifyReply, readOnly: boolean): Promise<FastifyReply> => {
      const user = authUser(request);
      const release = load.tryStart(user.id);
      if (!release) {
        void reply.header('retry-after', '1');
        return jsonRpcError(reply, 503, -32000, 'Service busy: too many MCP requests in flight; retry in a second');
      }
      try {
        const { answerMcpRequest, createInboxApi } = await loadMcpPackage();
        const token = BEARER.exec(request.headers.authorization ?? '')?.[1] ?? '';
        // No retries: a 429 or 503 is the tool's answer at once, never a wait inside the server.
        const api = createInboxApi({ baseUrl: IN_PROCESS_URL, token, fetch: injectFetch(app, request.ip), retry: { retries: 0 } });
        const answered = await answerMcpRequest({ api, cache: caches.for(user.keyId ?? user.id), readOnly }, toWebRequest(request, request.body));
        return await sendWebResponse(reply, answered);
      } finally {
        release();
      }
    };

    // `none`: any live key may connect; each tool call is then checked against the key's scopes by the API route it calls.
    const route = { config: { scope: 'none' as const }, schema: { hide: true } };
    mcp.post(MCP_PATH, route, (request: FastifyRequest<{ Body: string | undefined }>, reply) => answer(request, reply, false));
    mcp.post(MCP_READ_PATH, route, (request: FastifyRequest<{ Body: string | undefined }>, reply) => answer(request, reply, true));
    // Stateless: no server-sent stream to open (GET) and no session to end (DELETE); the transport spec's answer is 405.
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('allow', 'POST');
      return jsonRpcError(reply, 405, -32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST');
    };
    for (const path of [MCP_PATH, MCP_READ_PATH]) {
      mcp.get(path, route, notAllowed);
      mcp.delete(path, route, notAllowed);
    }
  });
}
