import type { LookupAddress } from 'node:dns';
import type { WebhookInjections } from '../../src/container.js';
import type { DialectName } from '../../src/db/create-db.js';
import type { ItemEventName } from '../../src/modules/events/events.service.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { HttpsReceiver, Reply, ReceivedRequest } from './https-receiver.js';
import { ok, type Actor } from './items.js';
import { createTestApp, type JsonBody, type TestApp, type TestAppOptions } from './test-app.js';
import type { TestCertificates } from './test-ca.js';

export const ALL_EVENTS: ItemEventName[] = ['item.created', 'item.updated', 'item.completed', 'item.uncompleted', 'item.archived', 'item.deleted'];

/** Names the tests use, mapped to loopback; anything else is unknown, so no real DNS is ever asked. */
export function testResolver(names: Record<string, string[]>, calls: string[] = []) {
  return async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`test resolver: ${hostname} is not a test host`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

export interface DeliveryAppOptions extends Omit<TestAppOptions, 'webhooks'> {
  certs: TestCertificates;
  allowPrivateTargets?: boolean;
  timeoutMs?: number;
  retryDelaysMs?: number[];
  resolver?: WebhookInjections['resolver'];
  worker?: WebhookInjections['worker'];
}

/**
 * An app whose deliveries reach the test's HTTPS receivers on 127.0.0.1: the test CA is trusted
 * through the transport's CA option, and the clock starts at the real time so the Standard
 * Webhooks verifier (which checks timestamps against the real clock) accepts the signatures.
 */
export function createDeliveryApp(dialect: DialectName, o: DeliveryAppOptions): Promise<TestApp> {
  const { certs, allowPrivateTargets = true, timeoutMs = 5_000, retryDelaysMs = [1000, 5000], resolver, worker, ...rest } = o;
  return createTestApp(dialect, {
    clock: new ManualClock(new Date()),
    ...rest,
    webhooks: {
      ca: [certs.caPem],
      delivery: { allowPrivateTargets, timeoutMs, retryDelaysMs },
      ...(resolver ? { resolver } : {}),
      ...(worker ? { worker } : {}),
    },
  });
}

export async function registerWebhook(a: Actor, url: string, events: ItemEventName[] = ALL_EVENTS): Promise<{ webhook: JsonBody; secret: string }> {
  return ok(await a.c.post('webhooks', { url, events }), 201);
}

/** A responder that answers each path from its own script, then 200 once the script runs out. */
export class ScriptedReplies {
  private readonly scripts = new Map<string, Reply[]>();

  plan(path: string, replies: Array<Reply | number>): void {
    this.scripts.set(
      path,
      replies.map((r) => (typeof r === 'number' ? { status: r } : r)),
    );
  }

  readonly respond = (request: ReceivedRequest): Reply => this.scripts.get(request.path)?.shift() ?? { status: 200 };
}

/** Runs the worker through all three attempts of whatever is pending (the default delays: 1 s, then 5 s). */
export async function runAllAttempts(t: TestApp): Promise<void> {
  await t.services.webhookWorker.drain();
  t.clock.advance(1000);
  await t.services.webhookWorker.drain();
  t.clock.advance(5000);
  await t.services.webhookWorker.drain();
}

/** The deliveries of a webhook's log, newest first (one page of up to 200). */
export async function deliveryLog(a: Actor, webhookId: string): Promise<JsonBody[]> {
  return ok(await a.c.get(`webhooks/${webhookId}/deliveries?limit=200`)).deliveries;
}

export const bodies = (receiver: HttpsReceiver, path: string): JsonBody[] => receiver.to(path).map((r) => JSON.parse(r.body));
