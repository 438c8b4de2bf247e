import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TestCertificates } from './test-ca.js';
import { waitFor } from './wait.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (what the signatures cover). */
  body: string;
  /** The same bytes (an encrypted web push is not UTF-8). */
  raw?: Buffer;
  /** 0-based position among every request this receiver got. */
  index: number;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';
export type Responder = (request: ReceivedRequest) => Reply;

/**
 * A real HTTPS server on 127.0.0.1 (ephemeral port) with a certificate from the test CA. It records
 * every request and answers as the test's responder says; 'hang' never answers (until close()).
 */
export class HttpsReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | undefined;
  port = 0;

  constructor(
    private readonly certs: TestCertificates,
    public responder: Responder = () => ({ status: 200 }),
  ) {}

  /** Listens on 127.0.0.1 unless told otherwise (`::1`: a second loopback address to tell apart). */
  async start(host = '127.0.0.1'): Promise<this> {
    const server = createServer({ cert: this.certs.certPem, key: this.certs.keyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          raw: Buffer.concat(chunks),
          index: this.received.length,
        };
        this.received.push(request);
        const reply = this.responder(request);
        if (reply === 'hang') {
          this.hanging.add(res);
          return;
        }
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? '');
      });
    });
    server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
    return this;
  }

  /** Answers every request left hanging so far with `status`. */
  releaseHanging(status: number): void {
    for (const res of this.hanging) {
      res.writeHead(status);
      res.end();
    }
    this.hanging.clear();
  }

  /** https://<host>:<port><path>; host defaults to 127.0.0.1. */
  url(path = '/hook', host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  to(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Bounded polling for real I/O: resolves once `count` requests (to `path`, if given) arrived. */
  async waitFor(count: number, path?: string, timeoutMs = 15_000): Promise<void> {
    await waitFor(() => (path ? this.to(path) : this.received).length >= count, {
      timeoutMs,
      intervalMs: 10,
      what: () => `${count} requests${path ? ` to ${path}` : ''}; the receiver got ${this.received.length}`,
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
