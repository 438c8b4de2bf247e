import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustedTargets } from '../../src/lib/trusted-targets.js';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { actor, expectError, ok } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestCertificates } from '../helpers/test-ca.js';
import { testResolver } from '../helpers/webhooks.js';

/** A LAN ntfy server as it comes out of the box: plain http, on a private address (here loopback). */
class PlainReceiver {
  readonly received: { path: string; body: string }[] = [];
  private server: Server | undefined;

  constructor(private readonly host: string) {}

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, this.host, resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * operations.md, PRIVATE_TARGETS_ALLOW: the owner's LAN ntfy server (issue 47 item 10: the page
 * offered "your own ntfy server" and refused one on the LAN). Trusted targets may be private and use
 * plain http; nothing else opens, and every connection's address is checked again at connect.
 */
describe.each(DIALECTS)('PRIVATE_TARGETS_ALLOW (%s)', (dialect) => {
  let t: TestApp;
  let receiver: PlainReceiver;
  let receiverV6: HttpsReceiver;
  beforeAll(async () => {
    receiver = await new PlainReceiver('127.0.0.1').start();
    // https with a certificate for evil.example.com that the app trusts: were the connect-time check
    // missing, the notification would arrive.
    const certs = await createTestCertificates(['evil.example.com']);
    receiverV6 = await new HttpsReceiver(certs).start('::1');
    t = await createTestApp(dialect, {
      webhooks: {
        ca: [certs.caPem],
        // Every name maps to loopback (tests never connect elsewhere): ntfy.lan is trusted by name and
        // its address is listed; evil.example.com is not trusted and lands on ::1, unlisted, where a
        // receiver listens: only the connect-time check keeps the notification from arriving.
        resolver: testResolver({ 'ntfy.lan': ['127.0.0.1'], 'evil.example.com': ['::1'] }),
        delivery: {
          allowPrivateTargets: false,
          trustedTargets: parseTrustedTargets('ntfy.lan, 127.0.0.1/32'),
          timeoutMs: 2_000,
          retryDelaysMs: [10, 10],
        },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await receiverV6?.close();
  });

  it('takes a listed address over plain http and delivers the test notification there', async () => {
    const a = await actor(t, 'pro');
    const url = `http://127.0.0.1:${receiver.port}/lan-topic`;
    const channel = ok(await a.c.post('channels', { kind: 'ntfy', url }), 201).channel;
    expect(channel.url).toBe(url);
    const tested = ok(await a.c.post(`channels/${channel.id}/test`));
    expect(tested).toMatchObject({ kind: 'ntfy', status: 'succeeded', last_status: 200 });
    expect(receiver.received.map((r) => r.path)).toContain('/lan-topic');
  });

  it('takes a listed name whose address is listed too, over http, and a listed webhook target', async () => {
    const a = await actor(t, 'pro');
    const channel = ok(await a.c.post('channels', { kind: 'ntfy', url: `http://ntfy.lan:${receiver.port}/named` }), 201).channel;
    // ntfy.lan resolves to 127.0.0.1, which is listed: the connection goes through.
    expect(ok(await a.c.post(`channels/${channel.id}/test`))).toMatchObject({ status: 'succeeded' });
    expect(receiver.received.map((r) => r.path)).toContain('/named');
    ok(await a.c.post('webhooks', { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['item.created'] }), 201);
  });

  it('refuses what is not listed: plain http elsewhere, unlisted private names and addresses', async () => {
    const a = await actor(t, 'pro');
    for (const url of ['http://ntfy.sh/topic', 'http://other.lan/topic', 'https://192.168.1.20/topic', 'http://127.0.0.2/topic', 'https://printer.local/t']) {
      expectError(await a.c.post('channels', { kind: 'ntfy', url }), 400, 'bad_request');
    }
    expectError(await a.c.post('webhooks', { url: 'http://10.9.9.9/hook', events: ['item.created'] }), 400, 'bad_request');
    expect(ok(await a.c.get('channels')).channels).toEqual([]);
  });

  it('checks the address at connect: a public-looking name that resolves to an unlisted private address is blocked', async () => {
    const a = await actor(t, 'pro');
    const channel = ok(await a.c.post('channels', { kind: 'ntfy', url: `https://evil.example.com:${receiverV6.port}/t` }), 201).channel;
    const tested = ok(await a.c.post(`channels/${channel.id}/test`));
    expect(tested).toMatchObject({ status: 'failed', last_status: 0 });
    expect(receiverV6.received).toEqual([]);
  });
});
