import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Message {
  role: string;
  content?: string | null;
}

/** A recorded turn: the tool calls the model made, or its final answer. */
export type RecordedTurn = Array<{ name: string; arguments: Record<string, unknown> }> | string;

const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

function dayFrom(today: Date, days: number): string {
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) + days * DAY_MS).toISOString().slice(0, 10);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fills a recorded argument as the model filled it from what it read: {{id:Title}} is the id the
 * tool answers of this conversation showed next to 'Title'; {{date:+N}} and {{next:monday}} are dates.
 */
function fill(value: unknown, seen: string, today: Date): unknown {
  if (Array.isArray(value)) return value.map((v) => fill(v, seen, today));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, seen, today)]));
  if (typeof value !== 'string') return value;
  return value.replace(/\{\{(id|date|next):([^}]+)\}\}/g, (_all, kind: string, arg: string) => {
    if (kind === 'date') return dayFrom(today, Number(arg));
    if (kind === 'next') {
      const wanted = WEEKDAYS.indexOf(arg);
      const ahead = (wanted - today.getUTCDay() + 7) % 7 || 7;
      return dayFrom(today, ahead);
    }
    const found = new RegExp(`'${escape(arg)}'[^\\n]*?· id ([0-9a-f-]{36})`).exec(seen);
    return found?.[1] ?? `no-id-seen-for-${arg}`;
  });
}

/**
 * A stand-in for an OpenAI-compatible chat endpoint on 127.0.0.1: it replays the recorded turns of
 * the task whose prompt opens the conversation, one turn per call, and records every request.
 */
export async function startScriptedModel(
  scripts: (prompt: string) => RecordedTurn[] | undefined,
): Promise<{ baseUrl: string; requests: unknown[]; close(): Promise<void> }> {
  const requests: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { messages: Message[] };
      requests.push(parsed);
      const prompt = parsed.messages.find((m) => m.role === 'user')?.content ?? '';
      const turn = parsed.messages.filter((m) => m.role === 'assistant').length;
      const script = scripts(prompt);
      const recorded = script?.[turn] ?? 'I have nothing more to do.';
      const seen = parsed.messages
        .filter((m) => m.role === 'tool')
        .map((m) => m.content ?? '')
        .join('\n');
      const message =
        typeof recorded === 'string'
          ? { role: 'assistant', content: recorded }
          : {
              role: 'assistant',
              content: null,
              tool_calls: recorded.map((call, i) => ({
                id: `call_${turn}_${i}`,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(fill(call.arguments, seen, new Date())) },
              })),
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: typeof recorded === 'string' ? 'stop' : 'tool_calls' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
