import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { JsonBody } from './test-app.js';
import { waitFor } from './wait.js';

/** The stdio server as agents start it without the CLI (the CLI's `cin mcp` runs the same function). */
export const STDIO_BIN = resolve(import.meta.dirname, '../../packages/mcp/dist/bin.js');

const clientInfo = { name: 'capture-inbox-tests', version: '1.0.0' };

/** The SDK's own client on the service's /mcp, with a bearer key (or none). */
export async function connectHttp(baseUrl: string, token: string | undefined): Promise<Client> {
  const client = new Client(clientInfo);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The SDK's own client on a stdio server it starts as a child process. */
export async function connectStdio(
  baseUrl: string,
  token: string,
  command: { command: string; args: string[] } = { command: process.execPath, args: [STDIO_BIN] },
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client(clientInfo);
  const transport = new StdioClientTransport({
    ...command,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', CAPTURE_INBOX_URL: baseUrl, CAPTURE_INBOX_TOKEN: token, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

export interface ToolAnswer {
  text: string;
  structured: JsonBody;
}

const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** A call that must succeed: its text summary and structured content. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  return { text: textOf(result), structured: result.structuredContent };
}

/** A call that must fail as a tool error (not a protocol error): its text. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `expected a tool error, got: ${textOf(result)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return textOf(result);
}

/** The largest tools/list answer, in bytes, that an agent should have to read at the start of every session. */
export const TOOLS_LIST_BUDGET = 10_240;

/**
 * The stdio server's answer to a request as the bytes it wrote on stdout (one line, without its
 * newline), after an initialize handshake: what an agent's client reads, measured without any
 * client re-serializing it.
 */
export async function rawStdioAnswer(baseUrl: string, token: string, request: { method: string; params?: Record<string, unknown> }): Promise<string> {
  const child = spawn(process.execPath, [STDIO_BIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', CAPTURE_INBOX_URL: baseUrl, CAPTURE_INBOX_TOKEN: token },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  // Only whole lines: the last piece may be a message still being written.
  const lineOf = (id: number) =>
    out
      .split('\n')
      .slice(0, -1)
      .find((line) => line.startsWith('{') && (JSON.parse(line) as { id?: number }).id === id);
  try {
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
    await waitFor(() => lineOf(1), { what: () => `the initialize answer (stdout so far: ${out.slice(0, 200)})` });
    send({ method: 'notifications/initialized' });
    send({ id: 2, ...request });
    return await waitFor(() => lineOf(2), { what: `the ${request.method} answer` });
  } finally {
    child.stdin.end();
    child.kill();
  }
}
