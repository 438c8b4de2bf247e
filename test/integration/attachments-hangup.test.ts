import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { tempFiles } from '../helpers/attachments.js';
import { until } from '../helpers/voice.js';

const MIB = 1024 * 1024;
const BOUNDARY = 'attachments-hangup-test';

/**
 * Issue 50's "an upload cut off half-way": the client announces 20 MiB, sends 2, and hangs up once
 * the server is writing the upload to FILES_DIR/tmp. No attachment, no content, no temporary file
 * is left, and the server goes on answering.
 */
describe.each(DIALECTS)('an attachment upload cut off half-way (%s)', (dialect) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  function startUpload(token: string, itemId: string, announcedBytes: number): Socket {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${BOUNDARY}--\r\n`;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      `POST /api/v1/items/${itemId}/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${Buffer.byteLength(head) + announcedBytes + Buffer.byteLength(tail)}\r\n\r\n${head}`,
    );
    return socket;
  }

  it('leaves no attachment, no stored bytes and no temporary file', async () => {
    const a = await actor(t, 'pro');
    const item = await capture(a.c, 'scan of the lease');
    const socket = startUpload(a.user.token, item.id as string, 20 * MIB);
    const chunk = Buffer.alloc(256 * 1024, 7);
    for (let sent = 0; sent < 2 * MIB; sent += chunk.length) {
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
    }
    expect(await until(() => tempFiles(t).length > 0)).toBe(true);
    socket.destroy();

    expect(await until(() => tempFiles(t).length === 0)).toBe(true);
    const read = ok(await a.c.get(`items/${item.id}`));
    expect(read.attachments).toEqual([]);
    expect(
      await t.services.db
        .selectFrom('attachments')
        .select('id')
        .where('item_id', '=', item.id as string)
        .execute(),
    ).toEqual([]);
    expect(ok(await a.c.get('me')).storage.used).toBe(0);
  });
});
