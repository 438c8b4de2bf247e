import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { makeTempDir, until } from '../helpers/voice.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

// Real ffmpeg and pocketsphinx processes: on a busy machine they take a while.
vi.setConfig({ testTimeout: 90_000 });

const MIB = 1024 * 1024;
const BOUNDARY = 'voice-streaming-test';

// A full collection before each reading, so that memory still held shows apart from garbage.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Bytes held in Buffers and other ArrayBuffers of this process (client and server alike). V8 frees
 * the memory of collected buffers on a background thread, so a reading right after a collection
 * can still count garbage; the least of a few readings is what is really held.
 */
async function bufferMemory(): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < 5; i += 1) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    least = Math.min(least, process.memoryUsage().arrayBuffers);
  }
  return least;
}

interface UploadResult {
  status: number | undefined;
  head: string;
  body: string;
  /** File bytes written to the socket when the first byte of the answer arrived. */
  sentWhenAnswered: number | undefined;
  sentTotal: number;
}

interface UploadOptions {
  token: string;
  /** Stop sending after this many file bytes (the upload is never finished when this is reached first). */
  maxFileBytes: number;
  /** Sent as Content-Length instead of chunked transfer encoding; no body is sent at all. */
  declaredLength?: number;
  /** Hang up after this many file bytes instead of waiting for an answer. */
  hangUpAfter?: number;
  /** Called once when this many file bytes have been sent, while the upload is in flight. */
  probe?: { at: number; run(): Promise<void> };
}

describe.skipIf(lacking(FFMPEG, POCKETSPHINX)).each(DIALECTS)('POST /api/v1/voice/transcribe over a real connection (%s)', (dialect) => {
  let t: TestApp;
  let pro: TestUser;
  let port: number;
  const temp = makeTempDir('voice-streaming');

  beforeAll(async () => {
    t = await createTestApp(dialect, { voice: { tempRoot: temp.dir } });
    pro = await createUser(t, 'pro');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    temp.remove();
  });

  /**
   * A raw HTTP/1.1 upload that streams an endless file part (64 KiB at a time, respecting
   * backpressure) until the server answers, the connection closes, or maxFileBytes is reached.
   */
  function upload(options: UploadOptions): Promise<UploadResult> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const chunk = Buffer.alloc(64 * 1024, 0x55);
      let answer = '';
      let sent = 0;
      let sentWhenAnswered: number | undefined;
      socket.on('data', (data) => {
        sentWhenAnswered ??= sent;
        answer += data.toString('latin1');
        // A client that reads while sending stops once it has the whole answer.
        const [head = '', body] = answer.split('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(head)?.[1];
        if (body !== undefined && length !== undefined && Buffer.byteLength(body, 'latin1') >= Number(length)) socket.destroy();
      });
      // Writing after the server answered and closed fails with EPIPE/ECONNRESET; the answer is what counts.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
        resolve({ status: status ? Number(status) : undefined, head, body, sentWhenAnswered, sentTotal: sent });
      });
      const closed = new Promise<void>((done) => socket.once('close', done));

      socket.on(
        'connect',
        () =>
          void (async () => {
            const framing = options.declaredLength === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${options.declaredLength}`;
            socket.write(
              'POST /api/v1/voice/transcribe HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
                `Authorization: Bearer ${options.token}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n${framing}\r\n\r\n`,
            );
            if (options.declaredLength !== undefined) return;
            const send = (data: Buffer | string): boolean => {
              const size = Buffer.byteLength(data);
              socket.cork();
              socket.write(`${size.toString(16)}\r\n`);
              socket.write(data);
              const ok = socket.write('\r\n');
              socket.uncork();
              return ok;
            };
            send(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="endless.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
            while (sentWhenAnswered === undefined && sent < options.maxFileBytes && !socket.destroyed) {
              if (options.probe && sent === options.probe.at) await options.probe.run();
              if (options.hangUpAfter !== undefined && sent >= options.hangUpAfter) {
                socket.destroy();
                return;
              }
              const ok = send(chunk);
              sent += chunk.length;
              if (!ok) await Promise.race([new Promise((drained) => socket.once('drain', drained)), closed]);
            }
            if (sentWhenAnswered === undefined && !socket.destroyed) {
              send(`\r\n--${BOUNDARY}--\r\n`);
              socket.write('0\r\n\r\n');
            }
          })(),
      );
    });
  }

  async function untilEmpty(dir: () => string[]): Promise<string[]> {
    await until(() => dir().length === 0);
    return dir();
  }

  it('cuts off an upload with 413 as soon as it passes 10 MiB, long before the client has sent it all', async () => {
    const before = await bufferMemory();
    let during = 0;
    const result = await upload({
      token: pro.token,
      maxFileBytes: 64 * MIB,
      probe: {
        at: 9 * MIB,
        run: async () => {
          during = await bufferMemory();
        },
      },
    });

    expect(result.status, result.head).toBe(413);
    expect(JSON.parse(result.body)).toEqual({ error: 'payload_too_large', message: expect.stringMatching(/10 MiB/) });
    // The server had to see more than 10 MiB to know; it answered well before the 64 MiB were sent.
    expect(result.sentWhenAnswered).toBeGreaterThan(10 * MIB);
    expect(result.sentWhenAnswered).toBeLessThan(32 * MIB);
    expect(result.sentTotal).toBeLessThan(64 * MIB);
    // With 9 MiB of the file sent, memory holds a few chunks of it, not the file: it is on disk.
    const growth = during - before;
    console.log(
      `[voice streaming] answered after ${(result.sentWhenAnswered! / MIB).toFixed(1)} MiB sent; buffers held with 9 MiB in flight: ${(growth / MIB).toFixed(2)} MiB`,
    );
    expect(during).toBeGreaterThan(0);
    expect(growth).toBeLessThan(2 * MIB);
    expect(await untilEmpty(temp.entries)).toEqual([]);
  });

  it('answers 413 to a declared Content-Length that cannot fit, before any of the body is sent', async () => {
    const result = await upload({ token: pro.token, maxFileBytes: 0, declaredLength: 64 * MIB });
    expect(result.status, result.head).toBe(413);
    expect(result.sentWhenAnswered).toBe(0);
    expect(temp.entries()).toEqual([]);
  });

  it('streams an upload under the limit through to the decoder', async () => {
    // 9 MiB of a repeated byte is no audio: the answer comes from ffmpeg, after the whole file arrived.
    const result = await upload({ token: pro.token, maxFileBytes: 9 * MIB });
    expect(result.status, result.head).toBe(415);
    expect(result.sentTotal).toBe(9 * MIB);
    expect(await untilEmpty(temp.entries)).toEqual([]);
  });

  it('removes the partial upload when the client hangs up mid-way', async () => {
    let receiving = false;
    const result = await upload({
      token: pro.token,
      maxFileBytes: 64 * MIB,
      hangUpAfter: 2 * MIB,
      // Hang up only once the server has started writing the upload to its temp directory.
      probe: {
        at: 2 * MIB,
        run: async () => {
          receiving = await until(() => temp.entries().length > 0);
        },
      },
    });
    expect(receiving).toBe(true);
    expect(result.status).toBeUndefined();
    expect(await untilEmpty(temp.entries)).toEqual([]);
  });
});
