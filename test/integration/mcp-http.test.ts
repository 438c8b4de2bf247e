import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { callError, callOk, connectHttp, TOOLS_LIST_BUDGET } from '../helpers/mcp-clients.js';
import { itServesEveryTool, type ToolFixture } from '../helpers/mcp-scenario.js';
import { client, createTestApp, createUser, type JsonBody, type TestApp, type TestUser } from '../helpers/test-app.js';

/** A JSON-RPC message posted as an MCP client would, without the SDK (to send what it never would). */
async function postMcp(baseUrl: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: JsonBody }> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const toolCall = (name: string, args: Record<string, unknown>, id = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe.each(DIALECTS)('POST /mcp (%s)', (dialect) => {
  let t: TestApp;
  let baseUrl: string;
  let owner: TestUser;
  let stranger: TestUser;
  let mcp: McpClient;
  let healthId: string;
  const opened: McpClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await createUser(t, 'pro');
    stranger = await createUser(t, 'free');
    const api = client(t.app, owner.token);
    ok(await api.patch('me', { timezone: 'Europe/Berlin' }));
    healthId = ok(await api.post('projects', { name: 'Health' })).id;
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    mcp = await connectHttp(baseUrl, owner.token);
    opened.push(mcp);
  });
  afterAll(async () => {
    for (const c of opened) await c.close();
    await t?.close();
  });

  const fixture = (): ToolFixture => ({ t, mcp, api: client(t.app, owner.token), stranger: client(t.app, stranger.token), healthId });
  itServesEveryTool(fixture);

  it('answers a tool error naming insufficient_scope for a tool the key may not use, and runs the ones it may', async () => {
    const readOnly = (await t.services.keys.mint(owner.id, 'agent, read only', { scopes: ['read'] })).token;
    const captureOnly = (await t.services.keys.mint(owner.id, 'agent, capture only', { scopes: ['capture'] })).token;
    const reader = await connectHttp(baseUrl, readOnly);
    const capturer = await connectHttp(baseUrl, captureOnly);
    opened.push(reader, capturer);
    expect(await callError(reader, 'capture', { text: 'Not allowed' })).toMatch(/^insufficient_scope: this API key lacks the capture scope/);
    expect(await callError(reader, 'archive_item', { id: healthId })).toMatch(/^insufficient_scope: .*write scope/);
    expect((await callOk(reader, 'search', { query: 'dentist' })).structured.items.length).toBeGreaterThan(0);
    const captured = await callOk(capturer, 'capture', { text: 'Captured by a capture-only key' });
    // Without the read scope the summary cannot name the project, but the capture is filed.
    expect(captured.structured.item.project_name).toBeNull();
    expect(captured.text).toMatch(/^Captured 'Captured by a capture-only key' · id /);
    expect(await callError(capturer, 'search', { query: 'x' })).toMatch(/^insufficient_scope: .*read scope/);
    // A project by name needs read: the tool names that scope (not "no project named") and captures nothing.
    const before = (await t.services.items.list(owner.id, { limit: 100 })).items.length;
    expect(await callError(capturer, 'capture', { text: 'For work', project: 'Health' })).toMatch(
      /^insufficient_scope: this API key lacks the read scope, which finding the project named "Health" needs; nothing was done/,
    );
    expect((await t.services.items.list(owner.id, { limit: 100 })).items.length).toBe(before);
    expect((await callOk(capturer, 'capture', { text: 'For health', project: healthId })).structured.item.project_id).toBe(healthId);
    // Capture takes tags itself, so the capture scope is enough for them.
    expect((await callOk(capturer, 'capture', { text: 'With tags', tags: ['x'] })).structured.item.tags).toEqual(['x']);
  });

  it('answers tools/list in at most 10 KB, as the bytes of the HTTP body', async () => {
    const res = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(JSON.parse(body.toString('utf8')).result.tools).toHaveLength(20);
    expect(body.byteLength).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it('capture with parent needs write: a key without it is refused before anything is captured', async () => {
    const token = (await t.services.keys.mint(owner.id, 'agent, read and capture', { scopes: ['read', 'capture'] })).token;
    const agent = await connectHttp(baseUrl, token);
    opened.push(agent);
    const parent = await capture(client(t.app, owner.token), 'Parent for a scoped key');
    const before = (await t.services.items.list(owner.id, { limit: 200 })).items.length;
    expect(await callError(agent, 'capture', { text: 'Child', parent: parent.id })).toMatch(
      /^insufficient_scope: this API key lacks the write scope, which placing a subtask under its parent needs; nothing was done/,
    );
    expect((await t.services.items.list(owner.id, { limit: 200 })).items.length).toBe(before);
    expect((await callOk(agent, 'list_subtasks', { id: parent.id })).structured.items).toEqual([]);
  });

  it('answers pro_required when a free user asks for the organizer', async () => {
    const free = await connectHttp(baseUrl, stranger.token);
    opened.push(free);
    expect(await callError(free, 'capture', { text: 'Sort this', organize: true })).toMatch(/^pro_required: /);
    const item = await capture(client(t.app, stranger.token), 'Sort that');
    expect(await callError(free, 'organize_item', { id: item.id })).toMatch(/^pro_required: /);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a valid key, and the SDK client cannot connect', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer cin_nothing_here' }, { authorization: 'Basic dXNlcjpwdw==' }];
    for (const headers of attempts) {
      const res = await postMcp(baseUrl, toolCall('list_projects', {}), headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect(res.json.error).toBe('unauthorized');
    }
    await expect(connectHttp(baseUrl, undefined)).rejects.toThrow(/401|nauthorized/);
  });

  it("answers malformed JSON-RPC with the SDK's JSON-RPC error and a 4xx, never a 5xx", async () => {
    const auth = { authorization: `Bearer ${owner.token}` };
    const cases: Array<[string, Record<string, string>, number, number]> = [
      ['{"jsonrpc": "2.0", "id": 1, "method": ', {}, 400, -32700],
      ['{"hello": "world"}', {}, 400, -32700],
      ['"just a string"', {}, 400, -32700],
      [toolCall('list_projects', {}), { 'content-type': 'text/plain' }, 415, -32000],
      [toolCall('list_projects', {}), { accept: 'application/json' }, 406, -32000],
      [toolCall('list_projects', {}), { 'mcp-protocol-version': '1999-01-01' }, 400, -32000],
    ];
    for (const [body, headers, status, code] of cases) {
      const res = await postMcp(baseUrl, body, { ...auth, ...headers });
      expect(res.status, body).toBe(status);
      expect(res.json, body).toMatchObject({ jsonrpc: '2.0', error: { code }, id: null });
    }
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${baseUrl}/mcp`, { method, headers: { ...auth, accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    // A tools/call without initialize works: the endpoint is stateless.
    const res = await postMcp(baseUrl, toolCall('list_projects', {}), auth);
    expect(res.status).toBe(200);
    expect(res.json.result.structuredContent.projects.length).toBeGreaterThan(0);
    expect(t.app.mcpLoad.inFlight).toBe(0);
  });
});

describe.each(DIALECTS)('POST /mcp limits (%s)', (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let limited: FastifyInstance;
  let baseUrl: string;
  let release: () => void = () => {};
  let engineCalled: () => void = () => {};

  /** The organizer's outbound call waits for the test to let it go, then fails (the local engine decides). */
  const gatedFetch: typeof fetch = () =>
    new Promise((_resolve, reject) => {
      engineCalled();
      release = () => reject(new Error('test engine: let go'));
    });

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      organizer: { engine: 'openai', openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-test', model: 'test' }, timeoutMs: 20_000 },
      fetch: gatedFetch,
      limits: { free: { perMinute: 1000, perDay: 100_000 }, pro: { perMinute: 12, perDay: 100_000 }, aiDailyQuota: 100, pairingPerMinute: 100 },
    });
    owner = await createUser(t, 'pro');
    limited = await buildApp({ config: { publicUrl: 'http://localhost:8080', mcp: { maxInFlight: 10, maxInFlightPerUser: 1 } }, services: t.services });
    baseUrl = await limited.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    release();
    await limited?.close();
    await t?.close();
  });

  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  const waitFor = async (what: () => boolean, label: string): Promise<void> => {
    for (let i = 0; i < 200 && !what(); i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(what(), label).toBe(true);
  };

  it('a client dropped mid-call leaves nothing in flight, and the server keeps serving; a second call of the same user meanwhile is refused with 503', async () => {
    const item = await capture(client(limited, owner.token), 'Plan the trip');
    const called = new Promise<void>((resolve) => (engineCalled = resolve));
    const abort = new AbortController();
    const pending = fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth() },
      body: toolCall('organize_item', { id: item.id }),
    }).catch((error: unknown) => error);
    await called;
    expect(limited.mcpLoad.inFlight).toBe(1);
    const busy = await postMcp(baseUrl, toolCall('list_projects', {}), auth());
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    abort.abort();
    expect(await pending).toBeInstanceOf(Error);
    release();
    await waitFor(() => limited.mcpLoad.inFlight === 0, 'the dropped call finished and let go');
    const mcp = await connectHttp(baseUrl, owner.token);
    try {
      expect((await callOk(mcp, 'get_item', { id: item.id })).structured.item.id).toBe(item.id);
    } finally {
      await mcp.close();
    }
    expect(limited.mcpLoad.inFlight).toBe(0);
  });

  it("counts each tool call as the API requests it makes against the key's limit, and a call over it is a tool error naming rate_limited", async () => {
    // A fresh Pro user: 12 requests a minute, and the manual clock keeps the minute from ending.
    const user = await createUser(t, 'pro');
    const mcp = await connectHttp(baseUrl, user.token);
    try {
      const item = await capture(client(limited, user.token), 'Count me'); // request 1
      const answers: Array<{ isError?: boolean; text: string }> = [];
      for (let i = 0; i < 20 && !answers.at(-1)?.isError; i += 1) {
        const result = await mcp.callTool({ name: 'get_item', arguments: { id: item.id } });
        answers.push({ isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0]!.text });
      }
      // The first get_item makes 4 requests (the item, its subtasks, the project names and the time
      // zone, those two then kept for 30 s), each later one 2: 1 + 4 + 2 * 3 = 11, so the fifth call
      // is refused (its second request is the 13th).
      expect(answers.filter((a) => !a.isError)).toHaveLength(4);
      expect(answers.at(-1)!.text).toMatch(/^rate_limited: per-minute request limit of the pro plan reached/);
      // The same counter as the API's: a direct call is refused too.
      expect((await client(limited, user.token).get('projects')).status).toBe(429);
    } finally {
      await mcp.close();
    }
  });
});
