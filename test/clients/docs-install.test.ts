import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio } from '../helpers/mcp-clients.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/*
 * The install and agent-config commands of the docs, run as written (the checkout's path put in
 * for the placeholder): they must work without any package from the registry.
 */

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const PLACEHOLDER_ROOT = '/path/to/capture-inbox';
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Every stdio command of docs/mcp.md: the JSON configs' command and args, and `claude mcp add … -- COMMAND`. */
function mcpDocCommands(): Array<{ command: string; args: string[] }> {
  const text = read('docs/mcp.md');
  const configs = [...text.matchAll(/"command"\s*:\s*"([^"]+)"\s*,\s*"args"\s*:\s*\[([^\]]*)\]/g)].map((m) => ({
    command: m[1]!,
    args: JSON.parse(`[${m[2]!}]`) as string[],
  }));
  const claude = [...text.matchAll(/^\s*(?:claude mcp add|capture-inbox)\b.*? -- (\S+) (.+)$/gm)].map((m) => ({
    command: m[1]!,
    args: m[2]!.trim().split(/\s+/),
  }));
  return [...configs, ...claude].map(({ command, args }) => ({ command, args: args.map((a) => a.replace(PLACEHOLDER_ROOT, ROOT)) }));
}

describe('the install commands of the docs', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cin-docs-install-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it("README's quick start puts a working cin on the PATH from the checkout, with the registry out of reach (--offline)", async () => {
    const line = /^\s*(npm install -g \.\/packages\/cli)\b/m.exec(read('README.md'))?.[1];
    expect(line, 'README.md installs cin with npm install -g ./packages/cli').toBeDefined();
    const prefix = join(temp, 'global');
    const [npm, ...args] = line!.split(' ');
    await run(npm!, [...args, '--prefix', prefix, '--offline', '--no-audit', '--no-fund'], { cwd: ROOT });
    const { version } = JSON.parse(read('packages/cli/package.json')) as { version: string };
    const cin = await run(join(prefix, 'bin/cin'), ['--version'], { env: { PATH: process.env.PATH ?? '', HOME: temp } });
    expect(cin.stdout).toBe(`cin ${version}\n`);
  }, 120_000);
});

// What is checked is the docs' commands, not storage: one dialect is enough.
describe('the agent configurations of docs/mcp.md and packages/mcp/README.md (sqlite)', () => {
  let t: ListeningApp;
  let user: TestUser;
  const opened: McpClient[] = [];
  const configHome = mkdtempSync(join(tmpdir(), 'cin-docs-mcp-'));

  beforeAll(async () => {
    t = await startListeningApp('sqlite');
    user = await createUser(t);
  });
  afterAll(async () => {
    for (const c of opened) await c.close();
    await t?.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('every stdio command runs the checkout’s build by its path, and serves the tools', async () => {
    const commands = mcpDocCommands();
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const { command, args } of commands) {
      expect(command, `${command} ${args.join(' ')}`).toBe('node');
      expect(args[0], 'a path into the checkout').toBe(join(ROOT, 'packages/cli/dist/cin.js'));
      const { client } = await connectStdio(t.baseUrl, user.token, { command: process.execPath, args }, { XDG_CONFIG_HOME: configHome });
      opened.push(client);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('capture');
    }
  }, 120_000);

  it("the MCP package's README runs its bin from the checkout", async () => {
    const line = /^CAPTURE_INBOX_URL=\S+ CAPTURE_INBOX_TOKEN=\S+ (node) (\S+)$/m.exec(read('packages/mcp/README.md'));
    expect(line?.[2]).toBe('packages/mcp/dist/bin.js');
    const { client } = await connectStdio(t.baseUrl, user.token, { command: process.execPath, args: [join(ROOT, line![2]!)] });
    opened.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('capture');
  }, 60_000);
});
