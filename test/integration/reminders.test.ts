import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import { SmtpSink } from '../helpers/smtp-sink.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import { createDeliveryApp, registerWebhook, runAllAttempts } from '../helpers/webhooks.js';
import { createPushSubscriber, verifyVapid } from '../helpers/web-push-subscriber.js';

const PUBLIC_URL = 'https://inbox.example.test';

/** Contract "Reminders": firing once, channels (ntfy, email, web push), the webhook event, the log. */
describe.each(DIALECTS)('reminders (%s)', (dialect) => {
  let t: TestApp;
  let certs: TestCertificates;
  let receiver: HttpsReceiver;
  let smtp: SmtpSink;
  beforeAll(async () => {
    certs = await createTestCertificates();
    receiver = await new HttpsReceiver(certs).start();
    smtp = await new SmtpSink().start();
    t = await createDeliveryApp(dialect, { certs, publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: 'Inbox <inbox@example.test>' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const fire = () => t.services.reminderScheduler.tick();

  async function berliner(): Promise<Actor> {
    const a = await actor(t, 'pro');
    ok(await a.c.patch('me', { timezone: 'Europe/Berlin' }));
    return a;
  }

  it('a reminder a minute ahead reaches ntfy, a mailbox, a decrypted web push and a webhook, once, with no notes', async () => {
    const a = await berliner();
    const { id: projectId } = ok(await a.c.post('projects', { name: 'Garden' }));
    const push = createPushSubscriber();
    const ntfy = ok(await a.c.post('channels', { kind: 'ntfy', url: receiver.url('/plants-topic'), token: 'tk_secret' }), 201).channel;
    const mail = ok(await a.c.post('channels', { kind: 'email', address: 'me@example.test' }), 201).channel;
    const wp = ok(await a.c.post('channels', { kind: 'webpush', subscription: { endpoint: receiver.url('/push/abc'), keys: push.keys } }), 201).channel;
    expect(ntfy).toMatchObject({ kind: 'ntfy', url: receiver.url('/plants-topic'), address: null });
    expect(JSON.stringify(ok(await a.c.get('channels')))).not.toContain('tk_secret');
    const hook = await registerWebhook(a, receiver.url('/hook'), ['item.reminder']);
    const now = t.clock.now().getTime();
    const item = await capture(a.c, 'Water the plants\nthe secret notes', {
      project_id: projectId,
      due_at: new Date(now + 3600_000).toISOString(),
      remind_at: new Date(now + 60_000).toISOString(),
    });
    expect(await fire()).toEqual({ fired: 0, missed: 0 });
    t.clock.advance(60_000);
    expect(await fire()).toEqual({ fired: 1, missed: 0 });
    expect(await fire()).toEqual({ fired: 0, missed: 0 });
    await t.services.webhookWorker.drain();
    await receiver.waitFor(1, '/plants-topic');
    await receiver.waitFor(1, '/push/abc');
    await receiver.waitFor(1, '/hook');
    await smtp.waitFor(1);

    const [n] = receiver.to('/plants-topic');
    expect(n!.headers).toMatchObject({ title: 'Water the plants', click: `${PUBLIC_URL}/items/${item.id}`, authorization: 'Bearer tk_secret' });
    expect(n!.body).toContain('Water the plants');
    expect(n!.body).toContain('Garden');

    const [p] = receiver.to('/push/abc');
    const { claims, publicKey } = verifyVapid(p!);
    expect(publicKey).toBe(
      ok(
        await t.app
          .inject({ method: 'GET', url: '/api/v1/push/key' })
          .then((r) => ({ status: r.statusCode, body: r.json(), headers: r.headers, text: r.body })),
      ).public_key,
    );
    expect(claims.aud).toBe(new URL(receiver.url('/')).origin);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(p!.headers['content-encoding']).toBe('aes128gcm');
    const message = JSON.parse(push.decrypt(p!.raw!)) as Record<string, string>;
    expect(message).toMatchObject({ title: 'Water the plants', url: `${PUBLIC_URL}/items/${item.id}` });
    expect(message.body).toContain('Garden');

    const [m] = smtp.mails;
    expect(m!.to).toEqual(['me@example.test']);
    expect(m!.raw).toContain('Subject: Reminder: Water the plants');
    expect(m!.raw).toContain(`${PUBLIC_URL}/items/${item.id}`);

    const [w] = receiver.to('/hook');
    const body = JSON.parse(w!.body);
    expect(body).toMatchObject({ event: 'item.reminder', data: { item: { id: item.id, remind_at: item.remind_at } } });
    // A webhook gets the item as every event carries it; the notification channels never the notes.
    for (const r of [n!, p!]) expect(r.body).not.toContain('secret notes');
    expect(body.data.item.content_md).toBe('the secret notes');
    expect(m!.raw).not.toContain('secret notes');
    expect(message.body).not.toContain('secret notes');
    expect(hook.webhook.id).toBeDefined();

    const feed = ok(await a.c.get('changes')).changes.map((c: { event: string }) => c.event);
    expect(feed.filter((e: string) => e === 'item.reminder')).toHaveLength(1);
    const log = ok(await a.c.get('reminders/log')).deliveries;
    expect(log).toHaveLength(3);
    expect(new Set(log.map((d: { channel_id: string }) => d.channel_id))).toEqual(new Set([ntfy.id, mail.id, wp.id]));
    for (const d of log) expect(d).toMatchObject({ item_id: item.id, remind_at: item.remind_at, status: 'succeeded', attempts: 1 });
  });

  it('fires once per remind_at: an unrelated change does not fire again, a snooze fires once more, a moved or cleared one never at the old time', async () => {
    const a = await berliner();
    const now = t.clock.now().getTime();
    const item = await capture(a.c, 'call back', { due_at: new Date(now + 3600_000).toISOString(), remind_at: new Date(now + 1000).toISOString() });
    t.clock.advance(1000);
    expect((await fire()).fired).toBe(1);
    ok(await a.c.patch(`items/${item.id}`, { title: 'call back soon' }));
    expect((await fire()).fired).toBe(0);
    const snoozed = ok(await a.c.post(`items/${item.id}/snooze`, { minutes: 10 }));
    expect(snoozed.remind_at).toBe(new Date(t.clock.now().getTime() + 600_000).toISOString());
    t.clock.advance(600_000);
    expect((await fire()).fired).toBe(1);
    const moved = await capture(a.c, 'moved', { remind_at: new Date(t.clock.now().getTime() + 1000).toISOString() });
    ok(await a.c.patch(`items/${moved.id}`, { remind_at: new Date(t.clock.now().getTime() + 3600_000).toISOString() }));
    const cleared = await capture(a.c, 'cleared', { remind_at: new Date(t.clock.now().getTime() + 1000).toISOString() });
    ok(await a.c.patch(`items/${cleared.id}`, { remind_at: null }));
    t.clock.advance(2000);
    expect((await fire()).fired).toBe(0);
    const events = (await a.events.take()).filter((e) => e.event === 'item.reminder');
    expect(events.map((e) => e.data.item.id)).toEqual([item.id, item.id]);
  });

  it('completed, archived and deleted items do not fire; one more than 24 h late is logged as missed', async () => {
    const a = await berliner();
    const at = new Date(t.clock.now().getTime() + 1000).toISOString();
    const done = await capture(a.c, 'done', { remind_at: at });
    const archived = await capture(a.c, 'archived', { remind_at: at });
    const deleted = await capture(a.c, 'deleted', { remind_at: at });
    ok(await a.c.post(`items/${done.id}/toggle`));
    ok(await a.c.post(`items/${archived.id}/archive`));
    expect((await a.c.delete(`items/${deleted.id}`)).status).toBe(204);
    const old = await capture(a.c, 'old', { remind_at: new Date(t.clock.now().getTime() - 25 * 3600_000).toISOString() });
    const late = await capture(a.c, 'late but fine', { remind_at: new Date(t.clock.now().getTime() - 23 * 3600_000).toISOString() });
    t.clock.advance(2000);
    await a.events.take();
    expect(await fire()).toEqual({ fired: 1, missed: 1 });
    const events = (await a.events.take()).filter((e) => e.event === 'item.reminder');
    expect(events.map((e) => e.data.item.id)).toEqual([late.id]);
    const log = ok(await a.c.get('reminders/log')).deliveries;
    expect(log).toEqual([expect.objectContaining({ item_id: old.id, status: 'missed', channel_id: null, kind: null, attempts: 0 })]);
  });

  it('a push service answering 410 deletes the channel; POST /channels/{id}/test sends now', async () => {
    const a = await berliner();
    const push = createPushSubscriber();
    receiver.responder = (r) => (r.path === '/push/gone' ? { status: 410 } : { status: 201 });
    const wp = ok(await a.c.post('channels', { kind: 'webpush', subscription: { endpoint: receiver.url('/push/gone'), keys: push.keys } }), 201).channel;
    const ntfy = ok(await a.c.post('channels', { kind: 'ntfy', url: receiver.url('/test-topic') }), 201).channel;
    const tested = ok(await a.c.post(`channels/${ntfy.id}/test`));
    expect(tested).toMatchObject({ channel_id: ntfy.id, kind: 'ntfy', status: 'succeeded', last_status: 201 });
    expect(receiver.to('/test-topic')).toHaveLength(1);
    // Its link opens a page that exists (the notifications settings; signed out, the sign-in first), not an item's 404.
    const click = String(receiver.to('/test-topic')[0]!.headers.click);
    expect(click).toBe(`${PUBLIC_URL}/account/notifications`);
    const opened = await t.app.inject({ url: new URL(click).pathname });
    expect(opened.statusCode).not.toBe(404);
    expect([200, 303]).toContain(opened.statusCode);
    const now = t.clock.now().getTime();
    await capture(a.c, 'ping', { remind_at: new Date(now + 1000).toISOString() });
    t.clock.advance(1000);
    expect((await fire()).fired).toBe(1);
    await runAllAttempts(t);
    expect(ok(await a.c.get('channels')).channels.map((c: { id: string }) => c.id)).toEqual([ntfy.id]);
    expect(wp.id).toBeDefined();
    receiver.responder = () => ({ status: 200 });
  });

  it('answers 400 and stores nothing for bad channels, a bad snooze and a remind_at that is not a date-time', async () => {
    const a = await berliner();
    const item = await capture(a.c, 'x');
    const push = createPushSubscriber();
    const before = await fingerprint(t.services.db);
    for (const body of [
      { kind: 'ntfy', url: 'http://ntfy.sh/topic' },
      { kind: 'ntfy', url: 'https://localhost/topic' },
      { kind: 'ntfy', url: 'https://ntfy.internal/topic' },
      { kind: 'ntfy', url: 'https://ntfy.sh/' },
      { kind: 'ntfy' },
      { kind: 'email', address: 'not-an-address' },
      { kind: 'webpush', subscription: { endpoint: 'http://push.example.test/x', keys: push.keys } },
      { kind: 'webpush', subscription: { endpoint: receiver.url('/push/x'), keys: { p256dh: 'short', auth: push.keys.auth } } },
      { kind: 'sms', url: 'https://ntfy.sh/x' },
    ]) {
      expectError(await a.c.post('channels', body), 400, 'bad_request');
    }
    for (const body of [{}, { minutes: 0 }, { minutes: 10081 }, { minutes: 5, until: '2026-12-01T10:00:00Z' }, { until: 'soon' }]) {
      expectError(await a.c.post(`items/${item.id}/snooze`, body), 400, 'bad_request');
    }
    expectError(await a.c.patch(`items/${item.id}`, { remind_at: 'in an hour' }), 400, 'bad_request');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('allows at most 20 channels a user', async () => {
    const a = await berliner();
    for (let i = 0; i < 20; i += 1) ok(await a.c.post('channels', { kind: 'ntfy', url: receiver.url(`/t${i}`) }), 201);
    expectError(await a.c.post('channels', { kind: 'ntfy', url: receiver.url('/t20') }), 400, 'bad_request');
  });
});

describe.each(DIALECTS)('email channels without SMTP_URL (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to create one: 400, nothing stored', async () => {
    const a = await actor(t);
    ok(await a.c.get('me')); // the key's first use is recorded; that is not what is measured
    const before = await fingerprint(t.services.db);
    expectError(await a.c.post('channels', { kind: 'email', address: 'me@example.test' }), 400, 'bad_request');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });
});
