import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import { serviceSignatureValid, verifyStandardWebhook } from '../helpers/webhook-signatures.js';
import { ScriptedReplies, createDeliveryApp, deliveryLog, registerWebhook, runAllAttempts, testResolver } from '../helpers/webhooks.js';

let certs: TestCertificates;
let receiver: HttpsReceiver;
const replies = new ScriptedReplies();

beforeAll(async () => {
  certs = await createTestCertificates(['hooks.example.test']);
  receiver = await new HttpsReceiver(certs, replies.respond).start();
});
afterAll(async () => receiver?.close());

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(DIALECTS)('webhook retries and failures (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  const path = (name: string) => `/${dialect}/${name}`;
  const drain = () => t.services.webhookWorker.drain();
  const drainAllAttempts = () => runAllAttempts(t);

  beforeAll(async () => {
    t = await createDeliveryApp(dialect, { certs, timeoutMs: 10_000 });
    a = await actor(t, 'pro');
  });
  afterAll(async () => t?.close());

  it('retries after a 500 at +1 s and +5 s, and stops at the first 2xx', async () => {
    replies.plan(path('retry'), [500, 500, 200]);
    const { webhook, secret } = await registerWebhook(a, receiver.url(path('retry')), ['item.created']);
    await capture(a.c, 'retry me');
    const start = t.clock.now().getTime();

    await drain();
    expect(receiver.to(path('retry'))).toHaveLength(1);
    t.clock.advance(999);
    await drain();
    expect(receiver.to(path('retry'))).toHaveLength(1);
    t.clock.advance(1);
    await drain();
    expect(receiver.to(path('retry'))).toHaveLength(2);
    t.clock.advance(4999);
    await drain();
    expect(receiver.to(path('retry'))).toHaveLength(2);
    t.clock.advance(1);
    await drain();
    expect(receiver.to(path('retry'))).toHaveLength(3);
    t.clock.advance(60_000);
    await drain();
    expect(receiver.to(path('retry'))).toHaveLength(3);

    const attempts = receiver.to(path('retry'));
    expect(new Set(attempts.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    // Each attempt carries its own timestamp, signed afresh: now, +1 s, +6 s.
    const startSeconds = Math.floor(start / 1000);
    expect(attempts.map((r) => Number(r.headers['webhook-timestamp']) - startSeconds)).toEqual([0, 1, 6]);
    for (const r of attempts) {
      expect(serviceSignatureValid(secret, r)).toBe(true);
      expect(verifyStandardWebhook(secret, r)).toEqual(JSON.parse(r.body));
    }
    const [delivery] = await deliveryLog(a, webhook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, last_status: 200, last_failure_reason: null });
    const [hook] = ok(await a.c.get('webhooks')).webhooks.filter((w: { id: string }) => w.id === webhook.id);
    expect(hook).toMatchObject({ last_failure_status: null, last_failure_reason: null, last_failure_at: null });
  });

  it('records the last status on the webhook when all three attempts fail, then stops', async () => {
    replies.plan(path('down'), [503, 503, 503]);
    const { webhook } = await registerWebhook(a, receiver.url(path('down')), ['item.created']);
    await capture(a.c, 'nobody home');
    await drainAllAttempts();
    const failedAt = t.clock.now().toISOString();
    t.clock.advance(3600_000);
    await drain();

    expect(receiver.to(path('down'))).toHaveLength(3);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 503, last_failure_reason: 'http_status' });
    const hook = ok(await a.c.get('webhooks')).webhooks.find((w: { id: string }) => w.id === webhook.id);
    expect(hook).toMatchObject({ last_failure_status: 503, last_failure_reason: 'http_status', last_failure_at: failedAt });
  });

  it('counts a 302 as a failure and never follows it', async () => {
    const redirect = { status: 302, headers: { location: receiver.url(path('elsewhere')) } };
    replies.plan(path('moved'), [redirect, redirect, redirect]);
    const { webhook } = await registerWebhook(a, receiver.url(path('moved')), ['item.created']);
    await capture(a.c, 'moved away');
    await drainAllAttempts();
    expect(receiver.to(path('moved'))).toHaveLength(3);
    expect(receiver.to(path('elsewhere'))).toHaveLength(0);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', last_status: 302, last_failure_reason: 'redirect' });
    expect(ok(await a.c.get('webhooks')).webhooks.find((w: { id: string }) => w.id === webhook.id)).toMatchObject({
      last_failure_status: 302,
      last_failure_reason: 'redirect',
    });
  });

  it('gives up on a receiver that never answers after the timeout, with status 0', async () => {
    // Its own app: a short timeout here, a generous one elsewhere so a busy machine cannot fail a healthy attempt.
    const quick = await createDeliveryApp(dialect, { certs, timeoutMs: 1000 });
    try {
      const b = await actor(quick, 'pro');
      replies.plan(path('silent'), ['hang', 'hang', 'hang']);
      const { webhook } = await registerWebhook(b, receiver.url(path('silent')), ['item.created']);
      await capture(b.c, 'anyone?');
      await runAllAttempts(quick);
      expect(receiver.to(path('silent'))).toHaveLength(3);
      expect((await deliveryLog(b, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 0, last_failure_reason: 'timeout' });
      expect(ok(await b.c.get('webhooks')).webhooks[0]).toMatchObject({ last_failure_status: 0, last_failure_reason: 'timeout' });
    } finally {
      await quick.close();
    }
  });

  it('records a refused connection as network_error', async () => {
    const { webhook } = await registerWebhook(a, `https://127.0.0.1:${await closedPort()}/hook`, ['item.created']);
    await capture(a.c, 'refused');
    await drainAllAttempts();
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 0, last_failure_reason: 'network_error' });
  });

  it('verifies the receiver’s certificate: an untrusted one is a network_error and gets no body', async () => {
    const stranger = await new HttpsReceiver(await createTestCertificates()).start();
    try {
      const { webhook } = await registerWebhook(a, stranger.url('/hook'), ['item.created']);
      await capture(a.c, 'untrusted');
      await drainAllAttempts();
      expect(stranger.received).toHaveLength(0);
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', last_failure_reason: 'network_error' });
    } finally {
      await stranger.close();
    }
  });

  it('redeliver sends a failed delivery again with the same X-Service-Delivery, and a delivered one too', async () => {
    replies.plan(path('flaky'), [500, 500, 500]);
    const { webhook, secret } = await registerWebhook(a, receiver.url(path('flaky')), ['item.created']);
    await capture(a.c, 'try again later');
    await drainAllAttempts();
    const [failed] = await deliveryLog(a, webhook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });

    const again = ok(await a.c.post(`webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`));
    expect(again).toMatchObject({ id: failed.id, status: 'pending', attempts: 3, last_status: 500 });
    await drain();
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 4, last_status: 200 });

    ok(await a.c.post(`webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`));
    await drain();
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 5 });

    const sent = receiver.to(path('flaky'));
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([failed.event_id]));
    expect(sent.every((r) => serviceSignatureValid(secret, r))).toBe(true);
  });

  it('a redelivered delivery gets a fresh set of three attempts', async () => {
    replies.plan(path('fresh'), [500, 500, 500, 500, 500, 500]);
    const { webhook } = await registerWebhook(a, receiver.url(path('fresh')), ['item.created']);
    await capture(a.c, 'twice three');
    await drainAllAttempts();
    const [failed] = await deliveryLog(a, webhook.id);
    ok(await a.c.post(`webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`));
    await drainAllAttempts();
    expect(receiver.to(path('fresh'))).toHaveLength(6);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 6 });
  });

  it('deleting a webhook stops its pending deliveries', async () => {
    replies.plan(path('deleted'), [500, 500, 500]);
    const { webhook } = await registerWebhook(a, receiver.url(path('deleted')), ['item.created']);
    await capture(a.c, 'stop it');
    await drain();
    expect(receiver.to(path('deleted'))).toHaveLength(1);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'pending' });

    ok(await a.c.delete(`webhooks/${webhook.id}`));
    await drainAllAttempts();
    expect(receiver.to(path('deleted'))).toHaveLength(1);
    const left = await t.services.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).execute();
    expect(left).toEqual([]);
    expectError(await a.c.get(`webhooks/${webhook.id}/deliveries`), 404, 'not_found');
  });
});

describe.each(DIALECTS)('webhook destinations checked at delivery (%s)', (dialect) => {
  let strict: TestApp;
  let lenient: TestApp;
  const lookups: string[] = [];
  const resolver = testResolver(
    { 'hooks.example.test': ['127.0.0.1'], 'twice.example.test': ['127.0.0.1', '10.0.0.1'], 'ten.example.test': ['10.20.30.40'] },
    lookups,
  );

  beforeAll(async () => {
    strict = await createDeliveryApp(dialect, { certs, allowPrivateTargets: false, resolver });
    lenient = await createTestApp(dialect, {
      db: strict.db,
      clock: strict.clock,
      webhooks: { ca: [certs.caPem], resolver, delivery: { allowPrivateTargets: true, timeoutMs: 5000, retryDelaysMs: [1000, 5000] } },
    });
  });
  afterAll(async () => {
    await lenient?.close();
    await strict?.close();
  });

  const drainAll = runAllAttempts;

  it('refuses a host name that resolves to loopback, without connecting', async () => {
    const a = await actor(strict, 'pro');
    const path = `/${dialect}/rebind`;
    const { webhook } = await registerWebhook(a, receiver.url(path, 'hooks.example.test'), ['item.created']);
    await capture(a.c, 'to a private place');
    await drainAll(strict);
    expect(lookups).toContain('hooks.example.test');
    expect(receiver.to(path)).toHaveLength(0);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 0, last_failure_reason: 'blocked_destination' });
    expect(ok(await a.c.get('webhooks')).webhooks[0]).toMatchObject({ last_failure_status: 0, last_failure_reason: 'blocked_destination' });
  });

  it('refuses a name when any of its addresses is private', async () => {
    const a = await actor(strict, 'pro');
    for (const host of ['twice.example.test', 'ten.example.test']) {
      await registerWebhook(a, receiver.url(`/${dialect}/${host}`, host), ['item.created']);
    }
    await capture(a.c, 'mixed answers');
    await drainAll(strict);
    const log = await strict.services.db.selectFrom('webhook_deliveries').select(['status', 'last_failure_reason']).where('user_id', '=', a.user.id).execute();
    expect(log).toEqual([
      { status: 'failed', last_failure_reason: 'blocked_destination' },
      { status: 'failed', last_failure_reason: 'blocked_destination' },
    ]);
  });

  it('refuses at delivery an address literal that was registered while private targets were allowed', async () => {
    const a = await actor(lenient, 'pro');
    const path = `/${dialect}/literal`;
    const { webhook } = await registerWebhook(a, receiver.url(path), ['item.created']);
    await capture(a.c, 'literal loopback');
    await drainAll(strict);
    expect(receiver.to(path)).toHaveLength(0);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', last_failure_reason: 'blocked_destination' });
  });

  it('with private targets allowed, connects to the address the resolver answered (TLS checked for the name)', async () => {
    const a = await actor(lenient, 'pro');
    const path = `/${dialect}/named`;
    const { webhook, secret } = await registerWebhook(a, receiver.url(path, 'hooks.example.test'), ['item.created']);
    await capture(a.c, 'by name');
    await lenient.services.webhookWorker.drain();
    const [request] = receiver.to(path);
    expect(request?.headers.host).toBe(`hooks.example.test:${receiver.port}`);
    expect(serviceSignatureValid(secret, request!)).toBe(true);
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});
