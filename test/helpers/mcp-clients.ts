import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { JsonBody } from './test-app.js';

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
