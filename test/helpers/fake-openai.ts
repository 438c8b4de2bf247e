import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ChatRequest {
  headers: IncomingMessage['headers'];
  url: string;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string };
    temperature?: number;
  };
}

/** What the fake answers: a status and a body, or `hang` to never answer (until the server closes). */
export type FakeAnswer = { status: number; body: string } | 'hang';

/** An OpenAI-compatible chat-completions server on 127.0.0.1 that answers what the test tells it to. */
export class FakeOpenAi {
  readonly requests: ChatRequest[] = [];
  answer: (request: ChatRequest) => FakeAnswer = () => ({ status: 500, body: '{"error":{"message":"no answer set"}}' });
  private server: Server | undefined;
  port = 0;

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(): Promise<void> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        const request: ChatRequest = { headers: req.headers, url: req.url ?? '', body: JSON.parse(raw) as ChatRequest['body'] };
        this.requests.push(request);
        const answer = this.answer(request);
        if (answer === 'hang') return;
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A chat-completions answer whose message content is `content`. */
export const chatAnswer = (content: string): FakeAnswer => ({
  status: 200,
  body: JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  }),
});

/** fetch for tests: refuses anything but loopback, so a mistake cannot reach the network. */
export const loopbackFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!['127.0.0.1', '[::1]'].includes(url.hostname)) throw new Error(`test fetch refused a non-loopback address: ${url.host}`);
  return fetch(input, init);
};
