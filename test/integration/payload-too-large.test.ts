import { request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBodyDrain } from '../../src/plugins/body-drain.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

const MIB = 1024 * 1024;
const BOUNDARY = 'drain-boundary';

interface Upload {
  path: string;
  token: string;
  kind: 'json' | 'voice';
  /** Body bytes beyond the envelope. */
  size: number;
  chunked: boolean;
}

/**
 * Node's own http.request, writing the body 64 KiB at a time with a pause between writes (a phone
 * on a slow link): it reads the answer only as it comes, and any write error counts as a failure.
 */
function streamingClient(port: number, u: Upload): Promise<{ status?: number; body: string; error?: string }> {
  const head = Buffer.from(
    u.kind === 'voice' ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n` : '{"text":"',
  );
  const tail = Buffer.from(u.kind === 'voice' ? `\r\n--${BOUNDARY}--\r\n` : '"}');
  const contentType = u.kind === 'voice' ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json';
  return new Promise((resolve) => {
    let status: number | undefined;
    let body = '';
    let error: string | undefined;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve({ ...(status !== undefined ? { status } : {}), body, ...(error ? { error } : {}) });
    };
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: u.path,
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${u.token}`,
          'content-type': contentType,
          ...(u.chunked ? {} : { 'content-length': String(head.length + u.size + tail.length) }),
        },
      },
      (res) => {
        status = res.statusCode;
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', settle);
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      settle();
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    req.write(head);
    const next = () => {
      if (req.destroyed) return;
      if (sent >= u.size) {
        req.end(tail);
        return;
      }
      sent += chunk.length;
      req.write(chunk);
      setTimeout(next, 1);
    };
    next();
  });
}

describe.each(DIALECTS)('413 for a client that is still sending (%s)', (dialect) => {
  let t: TestApp;
  let pro: TestUser;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    pro = await createUser(t, 'pro');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  for (const chunked of [false, true]) {
    const framing = chunked ? 'chunked' : 'Content-Length';
    it(`a JSON body over 1 MiB (${framing}): the client reads the 413, without a write error`, async () => {
      const res = await streamingClient(port, { path: '/api/v1/capture', token: pro.token, kind: 'json', size: 4 * MIB, chunked });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'payload_too_large' });
    });

    // Without a speech engine the route answers 503 before reading the body.
    it.skipIf(lacking(FFMPEG, POCKETSPHINX))(`a voice file over 10 MiB (${framing}): the client reads the 413, without a write error`, async () => {
      const res = await streamingClient(port, { path: '/api/v1/voice/transcribe', token: pro.token, kind: 'voice', size: 16 * MIB, chunked });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'payload_too_large', message: expect.stringMatching(/10 MiB/) });
    });
  }
});

describe('the drain after an early answer', () => {
  /** A raw client that keeps sending up to `total` bytes; answers what it read and how much it sent before the socket closed. */
  function endlessSender(port: number, total: number, pauseMs: number): Promise<{ answer: string; sent: number }> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      let sent = 0;
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ answer, sent }));
      socket.on('connect', () => {
        socket.write(`POST /limited HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`);
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const next = () => {
          if (socket.destroyed || sent >= total) return;
          sent += chunk.length;
          socket.write(chunk);
          setTimeout(next, pauseMs);
        };
        next();
      });
    });
  }

  async function limitedApp(limits: { maxBytes: number; maxMs: number }) {
    const app = Fastify({ bodyLimit: 1024 });
    installBodyDrain(app, limits);
    app.post('/limited', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, port: (app.server.address() as AddressInfo).port };
  }

  it('stops reading after maxBytes: the connection is cut, the answer was already sent', async () => {
    const { app, port } = await limitedApp({ maxBytes: 256 * 1024, maxMs: 30_000 });
    try {
      const { answer, sent } = await endlessSender(port, 8 * MIB, 0);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(sent).toBeLessThan(8 * MIB);
    } finally {
      await app.close();
    }
  });

  it('stops waiting after maxMs', async () => {
    const { app, port } = await limitedApp({ maxBytes: 64 * MIB, maxMs: 300 });
    try {
      const started = Date.now();
      const { answer, sent } = await endlessSender(port, 8 * MIB, 20);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(sent).toBeLessThan(8 * MIB);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await app.close();
    }
  });
});
