/**
 * The two wire protocols the evaluation speaks, each the few calls it needs: MCP's tools/list and
 * tools/call over Streamable HTTP (the service's /mcp is stateless, so no session is opened), and
 * an OpenAI-compatible chat completion with tools.
 */

export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

export class McpHttp {
  private nextId = 1;
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  private async rpc(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${this.token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
    });
    const body = (await res.json()) as { result?: Record<string, unknown>; error?: { message: string } };
    if (!body.result) throw new Error(`MCP ${method}: ${body.error?.message ?? `HTTP ${res.status}`}`);
    return body.result;
  }

  async listTools(): Promise<McpTool[]> {
    return (await this.rpc('tools/list', {})).tools as McpTool[];
  }

  async callTool(name: string, args: unknown): Promise<ToolAnswer> {
    const result = await this.rpc('tools/call', { name, arguments: args });
    const content = (result.content as Array<{ type: string; text?: string }> | undefined) ?? [];
    return { text: content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
  }
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** One chat completion with the tools offered; answers the assistant's message. */
export async function chat(
  options: ChatOptions,
  messages: readonly ChatMessage[],
  tools: readonly McpTool[],
): Promise<Extract<ChatMessage, { role: 'assistant' }>> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
    body: JSON.stringify({
      model: options.model,
      temperature: 0,
      messages,
      tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema } })),
    }),
    signal: AbortSignal.timeout(options.timeoutMs),
  }).catch((error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new Error(`cannot reach the model's endpoint ${url} (OPENAI_BASE_URL)${cause}`, { cause: error });
  });
  if (!res.ok) throw new Error(`the model's endpoint answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const body = (await res.json()) as { choices?: Array<{ message?: { content?: string | null; tool_calls?: ToolCall[] } }> };
  const message = body.choices?.[0]?.message;
  if (!message) throw new Error('the model answered no message');
  return { role: 'assistant', content: message.content ?? null, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}) };
}
