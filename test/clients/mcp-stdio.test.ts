import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { callError, callOk, connectStdio, rawStdioAnswer, STDIO_BIN, TOOLS_LIST_BUDGET } from '../helpers/mcp-clients.js';
import { itServesEveryTool, TOOL_NAMES, type ToolFixture } from '../helpers/mcp-scenario.js';
import { client, createUser, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

const CIN = resolve(import.meta.dirname, '../../packages/cli/dist/cin.js');

/** `cin mcp` as an agent starts it; tests give it an empty config directory, so only the environment's key counts. */
const cinMcp = { command: process.execPath, args: [CIN, 'mcp'] };

describe.each(DIALECTS)('cin mcp on stdio (%s)', (dialect) => {
  let t: ListeningApp;
  let owner: TestUser;
  let stranger: TestUser;
  let mcp: McpClient;
  let healthId: string;
  let configHome: string;
  let release: () => void = () => {};
  let engineCalled: () => void = () => {};
  const opened: McpClient[] = [];

  /** The organizer's outbound call waits until the test lets it go (then the local engine decides). */
  let gate = false;
  const organizerFetch: typeof fetch = () =>
    new Promise((_resolve, reject) => {
      if (!gate) return reject(new Error('test engine: not used'));
      engineCalled();
      release = () => reject(new Error('test engine: let go'));
    });

  const start = async (token: string): Promise<McpClient> => {
    const { client: c } = await connectStdio(t.baseUrl, token, cinMcp, { XDG_CONFIG_HOME: configHome });
    opened.push(c);
    return c;
  };

  beforeAll(async () => {
    configHome = mkdtempSync(join(tmpdir(), 'cin-mcp-'));
    t = await startListeningApp(dialect, {
      organizer: { engine: 'openai', openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-test', model: 'test' }, timeoutMs: 20_000 },
      fetch: organizerFetch,
    });
    owner = await createUser(t, 'pro');
    stranger = await createUser(t, 'free');
    const api = client(t.app, owner.token);
    ok(await api.patch('me', { timezone: 'Europe/Berlin' }));
    healthId = ok(await api.post('projects', { name: 'Health' })).id;
    mcp = await start(owner.token);
  });
  afterAll(async () => {
    release();
    for (const c of opened) await c.close();
    await t?.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  const fixture = (): ToolFixture => ({ t, mcp, api: client(t.app, owner.token), stranger: client(t.app, stranger.token), healthId });
  itServesEveryTool(fixture);

  it("applies the key's scopes: a read-only key reads, and capture is a tool error naming insufficient_scope", async () => {
    const reader = await start((await t.services.keys.mint(owner.id, 'agent, read only', { scopes: ['read'] })).token);
    expect(await callError(reader, 'capture', { text: 'Not allowed' })).toMatch(/^insufficient_scope: this API key lacks the capture scope/);
    expect((await callOk(reader, 'list_projects')).structured.projects.length).toBeGreaterThan(1);
  });

  it('--read-only serves only the read tools, whatever the key may do; a write tool is a tool error that changes nothing', async () => {
    const { client: reader } = await connectStdio(
      t.baseUrl,
      owner.token,
      { command: process.execPath, args: [CIN, 'mcp', '--read-only'] },
      { XDG_CONFIG_HOME: configHome },
    );
    opened.push(reader);
    const names = (await reader.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('list_completed');
    expect(names).not.toContain('capture');
    const before = ok(await client(t.app, owner.token).get('items?limit=200')).items.length;
    expect(await callError(reader, 'capture', { text: 'Not through a read-only server' })).toMatch(/not found/);
    expect(ok(await client(t.app, owner.token).get('items?limit=200')).items.length).toBe(before);
  });

  it('answers unauthorized as a tool error for a key the server does not know', async () => {
    const stranger = await start('cin_nope_nothing');
    expect(await callError(stranger, 'list_projects')).toMatch(/^unauthorized: /);
  });

  it('ends when the agent goes away mid-call, and the service keeps serving', async () => {
    const item = await capture(client(t.app, owner.token), 'Plan the move');
    const { client: leaving } = await connectStdio(t.baseUrl, owner.token, cinMcp, { XDG_CONFIG_HOME: configHome });
    const pid = (leaving.transport as { pid?: number | null } | undefined)?.pid;
    expect(pid).toBeGreaterThan(0);
    gate = true;
    const called = new Promise<void>((resolve) => (engineCalled = resolve));
    const pending = leaving.callTool({ name: 'organize_item', arguments: { id: item.id } }).catch((error: unknown) => error);
    await called;
    await leaving.close();
    expect(await pending).toBeInstanceOf(Error);
    gate = false;
    release();
    const alive = () => {
      try {
        process.kill(pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 200 && alive(); i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(alive()).toBe(false);
    expect((await callOk(mcp, 'get_item', { id: item.id })).structured.item.id).toBe(item.id);
  });

  it('uses the key cin login saved when the environment names none', async () => {
    const home = makeHome();
    try {
      mkdirSync(join(home.dir, '.config', 'capture-inbox'), { recursive: true });
      writeFileSync(home.config, JSON.stringify({ server: t.baseUrl, token: owner.token, key_id: owner.keyId }), { mode: 0o600 });
      const saved = new McpClient({ name: 'capture-inbox-tests', version: '1.0.0' });
      await saved.connect(new StdioClientTransport({ ...cinMcp, env: { PATH: process.env.PATH ?? '', HOME: home.dir }, stderr: 'pipe' }));
      opened.push(saved);
      expect((await callOk(saved, 'list_projects')).structured.projects.map((p: { name: string }) => p.name)).toContain('Health');
    } finally {
      home.dispose();
    }
  });

  it('answers tools/list in at most 10 KB, as the bytes written on stdout', async () => {
    const line = await rawStdioAnswer(t.baseUrl, owner.token, { method: 'tools/list', params: {} });
    expect(JSON.parse(line).result.tools).toHaveLength(20);
    expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it("capture-inbox-mcp (the package's own bin) serves the same tools from the environment", async () => {
    const { client: bare } = await connectStdio(t.baseUrl, owner.token, { command: process.execPath, args: [STDIO_BIN] });
    opened.push(bare);
    expect((await bare.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
  });
});

describe('cin mcp on the command line', () => {
  it('is listed by cin --help; without a key it exits 3, with arguments 2, before speaking any protocol', async () => {
    const home = makeHome();
    try {
      expect((await runCin(home.dir, ['--help'])).stdout).toMatch(/\bmcp\b.*MCP server on stdio/);
      const notLoggedIn = await runCin(home.dir, ['mcp']);
      expect(notLoggedIn).toMatchObject({ code: 3, stdout: '' });
      expect(notLoggedIn.stderr).toMatch(/not logged in/);
      expect((await runCin(home.dir, ['mcp', 'extra'], { env: { CAPTURE_INBOX_URL: 'http://127.0.0.1:9', CAPTURE_INBOX_TOKEN: 'cin_x' } })).code).toBe(2);
    } finally {
      home.dispose();
    }
  });
});

describe('cin mcp without a server to reach', () => {
  it('answers each tool call with a tool error saying the service cannot be reached', async () => {
    const configHome = mkdtempSync(join(tmpdir(), 'cin-mcp-'));
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const { client: c } = await connectStdio('http://127.0.0.1:9', 'cin_any_key', cinMcp, { XDG_CONFIG_HOME: configHome });
    try {
      expect(await callError(c, 'list_projects')).toMatch(/^unavailable: cannot reach http:\/\/127\.0\.0\.1:9/);
    } finally {
      await c.close();
      rmSync(configHome, { recursive: true, force: true });
    }
  }, 30_000);
});
