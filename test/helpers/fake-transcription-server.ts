import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface ReceivedTranscription {
  path: string;
  authorization: string | undefined;
  fields: Record<string, string>;
  file: { name: string; type: string; bytes: Buffer } | undefined;
}

export type FakeBehaviour =
  | { kind: 'answer'; status: number; body: string }
  /** Reads the request, then never answers (until the server closes). */
  | { kind: 'hang' };

/**
 * An OpenAI-compatible /v1/audio/transcriptions on 127.0.0.1 that records what it was sent and
 * answers as the test says.
 */
export class FakeTranscriptionServer {
  readonly received: ReceivedTranscription[] = [];
  /** Requests whose client hung up before the answer was sent. */
  abandoned = 0;
  behaviour: FakeBehaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: 'hello from the fake' }) };
  private server: Server | undefined;

  get baseUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The platform's own multipart parser reads the form, as a real service would.
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers: req.headers as Record<string, string>,
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    });
    const form = await request.formData();
    const fields: Record<string, string> = {};
    let file: ReceivedTranscription['file'];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    this.received.push({ path: req.url ?? '', authorization: req.headers.authorization, fields, file });
    res.on('close', () => {
      if (!res.writableFinished) this.abandoned += 1;
    });
    const behaviour = this.behaviour;
    if (behaviour.kind === 'hang') return;
    res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end(behaviour.body);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
