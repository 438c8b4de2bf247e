import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { UTC_MS, actor, capture, ok, type Actor } from '../helpers/items.js';
import type { JsonBody, TestApp } from '../helpers/test-app.js';
import { createTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import { serviceSignatureValid, verifyStandardWebhook } from '../helpers/webhook-signatures.js';
import { ALL_EVENTS, ScriptedReplies, bodies, createDeliveryApp, deliveryLog, registerWebhook, runAllAttempts } from '../helpers/webhooks.js';

let certs: TestCertificates;
let receiver: HttpsReceiver;
const replies = new ScriptedReplies();

beforeAll(async () => {
  certs = await createTestCertificates();
  receiver = await new HttpsReceiver(certs, replies.respond).start();
});
afterAll(async () => receiver?.close());

describe.each(DIALECTS)('webhook deliveries (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  const path = (name: string) => `/${dialect}/${name}`;

  beforeAll(async () => {
    t = await createDeliveryApp(dialect, { certs });
    a = await actor(t, 'pro');
  });
  afterAll(async () => t?.close());

  const drain = () => t.services.webhookWorker.drain();

  it('POSTs the contract body with both signatures, verified by independent checks', async () => {
    const { webhook, secret } = await registerWebhook(a, receiver.url(path('signed')), ['item.created']);
    const item = await capture(a.c, 'Buy milk\n2%, not skim');
    await drain();

    const [request] = receiver.to(path('signed'));
    expect(receiver.to(path('signed'))).toHaveLength(1);
    const [event] = (await a.events.take()).slice(-1);
    expect(request!.method).toBe('POST');
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'CaptureInbox-Webhooks/1.0',
      'x-service-event': 'item.created',
      'x-service-delivery': event!.id,
      'webhook-id': event!.id,
      'webhook-timestamp': String(Math.floor(t.clock.now().getTime() / 1000)),
    });
    expect(request!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const body = JSON.parse(request!.body);
    expect(body).toEqual({ id: event!.id, event: 'item.created', created_at: expect.stringMatching(UTC_MS), data: { item } });
    expect(serviceSignatureValid(secret, request!)).toBe(true);
    expect(verifyStandardWebhook(secret, request!)).toEqual(body);
    expect(serviceSignatureValid('cinwh_not-the-secret', request!)).toBe(false);

    const [delivery] = await deliveryLog(a, webhook.id);
    expect(delivery).toEqual({
      id: expect.any(String),
      event_id: event!.id,
      event: 'item.created',
      item_id: item.id,
      status: 'succeeded',
      attempts: 1,
      last_status: 200,
      last_failure_reason: null,
      created_at: expect.stringMatching(UTC_MS),
      last_attempt_at: t.clock.now().toISOString(),
    });
  });

  it('delivers every event of the contract table, each once, to a webhook subscribed to all', async () => {
    const b = await actor(t, 'pro');
    await registerWebhook(b, receiver.url(path('all')), ALL_EVENTS);
    const parent = await capture(b.c, 'Parent');
    ok(await b.c.patch(`items/${parent.id}`, { title: 'Renamed' }));
    ok(await b.c.patch(`items/${parent.id}`, { status: 'done' }));
    ok(await b.c.post(`items/${parent.id}/toggle`));
    ok(await b.c.post(`items/${parent.id}/archive`));
    ok(await b.c.post(`items/${parent.id}/archive`)); // already archived: no event
    ok(await b.c.post(`items/${parent.id}/unarchive`));
    ok(await b.c.patch(`items/${parent.id}`, { status: 'archived' }));
    ok(await b.c.patch(`items/${parent.id}`, { status: 'todo' }));
    ok(await b.c.patch(`items/${parent.id}`, {})); // nothing changed: no event
    const child = await capture(b.c, 'Child', { type: 'note' });
    ok(await b.c.patch(`items/${child.id}`, { parent_id: parent.id }));
    const project = ok(await b.c.post('projects', { name: 'Errands' }));
    ok(await b.c.patch(`items/${parent.id}`, { project_id: project.id }));
    ok(await b.c.delete(`projects/${project.id}`)); // its item moves to the Inbox
    expect((await b.c.delete(`items/${parent.id}`)).status).toBe(204); // subtask goes too
    await drain();

    const expected = [
      'item.created',
      'item.updated',
      'item.updated',
      'item.completed',
      'item.uncompleted',
      'item.archived',
      'item.updated',
      'item.updated',
      'item.archived',
      'item.updated',
      'item.created',
      'item.updated',
      'item.updated',
      'item.updated',
      'item.deleted',
      'item.deleted',
    ];
    const outbox = await b.events.take();
    expect(outbox.map((e) => e.event)).toEqual(expected);
    const received = receiver.to(path('all'));
    // Each event arrives exactly once, with the body written in the change's own transaction.
    expect(received.map((r) => r.headers['x-service-delivery']).sort()).toEqual(outbox.map((e) => e.id).sort());
    const byId = new Map(outbox.map((e) => [e.id, e]));
    for (const r of received) {
      const body = JSON.parse(r.body);
      expect(body).toEqual(byId.get(body.id));
      expect(r.headers['x-service-event']).toBe(body.event);
    }
    const deleted = bodies(receiver, path('all'))
      .filter((e) => e.event === 'item.deleted')
      .map((e) => e.data.item.id)
      .sort();
    expect(deleted).toEqual([parent.id, child.id].sort());
  });

  it('delivers the events of bulk operations, per item, like the single-item calls', async () => {
    const b = await actor(t, 'pro');
    const items = [await capture(b.c, 'Bulk one'), await capture(b.c, 'Bulk two')];
    const ids = items.map((i) => i.id);
    t.clock.advance(1);
    await registerWebhook(b, receiver.url(path('bulk')), ALL_EVENTS);
    t.clock.advance(1);
    const project = ok(await b.c.post('projects', { name: 'Bulk target' }));
    const bulk = async (op: string, payload?: Record<string, unknown>) =>
      expect(ok(await b.c.post('items/bulk', { op, ids, ...(payload ? { payload } : {}) }))).toMatchObject({ ok: true, updated: 2 });
    await bulk('toggle', { is_completed: true });
    await bulk('toggle', { is_completed: true }); // already completed: counted, no event
    await bulk('toggle');
    await bulk('archive');
    await bulk('unarchive');
    await bulk('move', { project_id: project.id });
    await bulk('delete');
    await drain();

    const received = bodies(receiver, path('bulk'));
    const perItem = (id: string) =>
      received
        .filter((e) => e.data.item.id === id)
        .sort((x, y) => x.id.localeCompare(y.id))
        .map((e) => e.event);
    for (const id of ids) {
      expect(perItem(id)).toEqual(['item.completed', 'item.uncompleted', 'item.archived', 'item.updated', 'item.updated', 'item.deleted']);
    }
    const outbox = (await b.events.take()).filter((e) => e.event !== 'item.created');
    expect(received.map((e) => e.id).sort()).toEqual(outbox.map((e) => e.id).sort());
  });

  it('sends a webhook only the events it subscribed to', async () => {
    const c = await actor(t, 'pro');
    await registerWebhook(c, receiver.url(path('completed-only')), ['item.completed']);
    await registerWebhook(c, receiver.url(path('created-only')), ['item.created']);
    const item = await capture(c.c, 'Subscribed');
    ok(await c.c.post(`items/${item.id}/toggle`));
    ok(await c.c.post(`items/${item.id}/toggle`));
    await drain();
    expect(bodies(receiver, path('completed-only')).map((e) => e.event)).toEqual(['item.completed']);
    expect(bodies(receiver, path('created-only')).map((e) => e.event)).toEqual(['item.created']);
  });

  it('never sends one user’s events to another user’s webhook', async () => {
    const owner = await actor(t, 'pro');
    const stranger = await actor(t, 'pro');
    await registerWebhook(owner, receiver.url(path('owner')), ['item.created']);
    await capture(stranger.c, 'not yours');
    const mine = await capture(owner.c, 'yours');
    await drain();
    expect(bodies(receiver, path('owner')).map((e) => e.data.item.id)).toEqual([mine.id]);
  });

  it('does not deliver events written before the webhook was registered', async () => {
    const d = await actor(t, 'pro');
    await capture(d.c, 'before');
    t.clock.advance(1);
    await registerWebhook(d, receiver.url(path('late')), ['item.created']);
    t.clock.advance(1);
    const after = await capture(d.c, 'after');
    await drain();
    expect(bodies(receiver, path('late')).map((e) => e.data.item.id)).toEqual([after.id]);
  });

  it('GET /webhooks/{id}/deliveries pages newest first', async () => {
    const e = await actor(t, 'pro');
    const { webhook } = await registerWebhook(e, receiver.url(path('log')), ['item.created']);
    const items: JsonBody[] = [];
    for (const text of ['one', 'two', 'three']) {
      items.push(await capture(e.c, text));
      await drain(); // one fan-out each, so every delivery has its own created_at
      t.clock.advance(10);
    }
    const first = ok(await e.c.get(`webhooks/${webhook.id}/deliveries?limit=2`));
    expect(first.deliveries.map((d: JsonBody) => d.item_id)).toEqual([items[2].id, items[1].id]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = ok(await e.c.get(`webhooks/${webhook.id}/deliveries?limit=2&cursor=${first.next_cursor}`));
    expect(second.deliveries.map((d: JsonBody) => d.item_id)).toEqual([items[0].id]);
    expect(second.next_cursor).toBeNull();
    expect(ok(await e.c.get(`webhooks/${webhook.id}/deliveries?limit=5000`)).deliveries).toHaveLength(3);
  });
});

describe.each(DIALECTS)('webhook secrets and answers (%s)', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  const path = (name: string) => `/${dialect}/quiet/${name}`;

  beforeAll(async () => {
    // Everything the service logs, at every level.
    t = await createDeliveryApp(dialect, { certs, logger: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }) });
  });
  afterAll(async () => t?.close());

  it('never logs the secret, its signing key, or the receiver’s path and query', async () => {
    const a = await actor(t, 'pro');
    replies.plan(path('fails'), [500, 500, 500]);
    const ok1 = await registerWebhook(a, receiver.url(`${path('works')}?token=receiver-own-token`), ['item.created']);
    const ok2 = await registerWebhook(a, receiver.url(path('fails')), ['item.created']);
    await capture(a.c, 'logged?');
    await runAllAttempts(t);
    expect(receiver.to(`${path('works')}?token=receiver-own-token`)).toHaveLength(1);
    expect(receiver.to(path('fails'))).toHaveLength(3);
    const log = lines.join('\n');
    expect(log).toContain('webhook attempt failed');
    for (const { secret } of [ok1, ok2]) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(createHash('sha256').update(secret).digest('hex'));
    }
    expect(log).not.toContain('receiver-own-token');
    expect(log).not.toContain(path('fails'));
  });

  it('reads at most a few KB of an answer: a huge 200 body still counts as delivered', async () => {
    const a = await actor(t, 'pro');
    replies.plan(path('huge'), [{ status: 200, body: 'x'.repeat(8 * 1024 * 1024) }]);
    const { webhook } = await registerWebhook(a, receiver.url(path('huge')), ['item.created']);
    await capture(a.c, 'big answer');
    await t.services.webhookWorker.drain();
    expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1, last_status: 200 });
  });
});
