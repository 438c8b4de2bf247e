import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/open-database.js';
import { leaseFor } from '../../src/modules/deliveries/delivery-worker.js';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { actor, capture } from '../helpers/items.js';
import type { TestApp } from '../helpers/test-app.js';
import type { TestDb } from '../helpers/test-db.js';
import { createTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import { ScriptedReplies, createDeliveryApp, deliveryLog, registerWebhook } from '../helpers/webhooks.js';
import { waitFor } from '../helpers/wait.js';

let certs: TestCertificates;
let receiver: HttpsReceiver;
const replies = new ScriptedReplies();

beforeAll(async () => {
  certs = await createTestCertificates();
  receiver = await new HttpsReceiver(certs, replies.respond).start();
});
afterAll(async () => receiver?.close());

/** A second connection (pool) to the same database, as a second server instance would have. */
function secondConnection(db: TestDb): TestDb {
  const handle = openDatabase(db.url, db.searchPath ? { searchPath: db.searchPath, poolSize: 5 } : {});
  return { ...db, handle, destroy: () => handle.db.destroy() };
}

describe.each(DIALECTS)('webhook delivery durability (%s)', (dialect) => {
  const path = (name: string) => `/${dialect}/${name}`;

  describe('a claim whose worker died', () => {
    let first: TestApp;
    let second: TestApp;
    const slowTimeout = 60_000;

    beforeAll(async () => {
      // The first worker's attempts would wait a minute for an answer; its lease lasts longer still.
      first = await createDeliveryApp(dialect, { certs, timeoutMs: slowTimeout, worker: { shutdownGraceMs: 0 } });
      second = await createDeliveryApp(dialect, { certs, db: first.db, clock: first.clock });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('is taken over once its lease expires, and the dead worker’s late answer changes nothing', async () => {
      replies.plan(path('lease'), ['hang', 200]);
      const a = await actor(first, 'pro');
      const { webhook } = await registerWebhook(a, receiver.url(path('lease')), ['item.created']);
      await capture(a.c, 'survive a crash');

      // The first worker claims and sends, then "dies": its request hangs and its lease stands.
      const abandoned = first.services.webhookWorker.tick();
      await receiver.waitFor(1, path('lease'));
      await second.services.webhookWorker.drain();
      expect(receiver.to(path('lease'))).toHaveLength(1); // leased: nobody else touches it

      first.clock.advance(leaseFor(slowTimeout) - 1);
      await second.services.webhookWorker.drain();
      expect(receiver.to(path('lease'))).toHaveLength(1);
      first.clock.advance(1);
      await second.services.webhookWorker.drain();
      expect(receiver.to(path('lease'))).toHaveLength(2);
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_status: 200 });

      // The first worker's request finally gets an error answer; the lease is gone, so it is ignored.
      receiver.releaseHanging(500);
      await abandoned;
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_status: 200 });
      const requests = receiver.to(path('lease'));
      expect(requests[0]!.headers['x-service-delivery']).toBe(requests[1]!.headers['x-service-delivery']);
    });

    it('an attempt cut short by a crash counts: a failing receiver sees three POSTs in all, not four', async () => {
      replies.plan(path('crash-first'), ['hang', 500, 500, 500, 500]);
      const a = await actor(first, 'pro');
      const { webhook } = await registerWebhook(a, receiver.url(path('crash-first')), ['item.created']);
      await capture(a.c, 'crash on the first attempt');
      const abandoned = first.services.webhookWorker.tick();
      await receiver.waitFor(1, path('crash-first'));
      first.clock.advance(leaseFor(slowTimeout));
      for (let i = 0; i < 4; i += 1) {
        await second.services.webhookWorker.drain();
        first.clock.advance(5000);
      }
      expect(receiver.to(path('crash-first'))).toHaveLength(3);
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 500 });
      receiver.releaseHanging(500);
      await abandoned;
      expect(receiver.to(path('crash-first'))).toHaveLength(3);
    });

    it('a crash during the last attempt ends the set as failed with no response, without a fourth POST', async () => {
      replies.plan(path('crash-last'), [500, 500, 'hang', 500]);
      const a = await actor(first, 'pro');
      const { webhook } = await registerWebhook(a, receiver.url(path('crash-last')), ['item.created']);
      await capture(a.c, 'crash on the last attempt');
      await second.services.webhookWorker.drain();
      first.clock.advance(1000);
      await second.services.webhookWorker.drain();
      first.clock.advance(5000);
      const abandoned = first.services.webhookWorker.tick();
      await receiver.waitFor(3, path('crash-last'));
      first.clock.advance(leaseFor(slowTimeout));
      await second.services.webhookWorker.drain();
      first.clock.advance(60_000);
      await second.services.webhookWorker.drain();
      expect(receiver.to(path('crash-last'))).toHaveLength(3);
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 0 });
      const hooks = (await a.c.get('webhooks')).body.webhooks as Array<{ id: string; last_failure_status: number | null; last_failure_reason: string | null }>;
      expect(hooks.find((h) => h.id === webhook.id)).toMatchObject({ last_failure_status: 0, last_failure_reason: 'network_error' });
      receiver.releaseHanging(500);
      await abandoned;
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 3 });
    });

    it('stop() cuts an attempt off after the grace period and hands its lease back at once', async () => {
      replies.plan(path('shutdown'), ['hang', 200]);
      const a = await actor(first, 'pro');
      const { webhook } = await registerWebhook(a, receiver.url(path('shutdown')), ['item.created']);
      await capture(a.c, 'interrupted');
      first.services.webhookWorker.start();
      await receiver.waitFor(1, path('shutdown'));
      await first.services.webhookWorker.stop();
      const [row] = await first.services.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'lease_owner', 'round_attempts'])
        .where('webhook_id', '=', webhook.id)
        .execute();
      // The receiver got the POST: the attempt was started, so it counts.
      expect(row).toEqual({ status: 'pending', lease_owner: null, round_attempts: 1 });
      await second.services.webhookWorker.drain(); // no clock change needed: nothing to wait for
      expect((await deliveryLog(a, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    });
  });

  describe('a slow receiver', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createDeliveryApp(dialect, { certs, timeoutMs: 60_000, worker: { perWebhook: 2, concurrency: 8, pollMs: 20, shutdownGraceMs: 0 } });
    });
    afterAll(async () => t?.close());

    it('holds at most its per-webhook share and never delays another user’s deliveries', async () => {
      replies.plan(
        path('slow'),
        Array.from({ length: 20 }, () => 'hang' as const),
      );
      const slow = await actor(t, 'pro');
      const fast = await actor(t, 'pro');
      await registerWebhook(slow, receiver.url(path('slow')), ['item.created']);
      await registerWebhook(fast, receiver.url(path('fast')), ['item.created']);
      for (let i = 0; i < 6; i += 1) await capture(slow.c, `slow ${i}`);
      t.clock.advance(1);
      await capture(fast.c, 'fast one');

      t.services.webhookWorker.start();
      await receiver.waitFor(1, path('fast'));
      await waitFor(() => receiver.to(path('slow')).length >= 2, { timeoutMs: 20_000, intervalMs: 20, what: 'the slow receiver to get its share' });
      expect(receiver.to(path('slow'))).toHaveLength(2);
      await t.services.webhookWorker.stop();
      const pending = await t.services.db.selectFrom('webhook_deliveries').select(['status', 'lease_owner']).where('user_id', '=', slow.user.id).execute();
      expect(pending).toHaveLength(6);
      expect(pending.every((d) => d.status === 'pending' && d.lease_owner === null)).toBe(true);
    });
  });

  describe('pruning', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createDeliveryApp(dialect, { certs });
    });
    afterAll(async () => t?.close());

    const outboxIds = async (userId: string) =>
      (await t.services.db.selectFrom('outbox_events').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);

    it('deletes finished deliveries after 7 days and outbox events after 31, keeping what a pending delivery needs', async () => {
      replies.plan(path('prune'), [200, 500]);
      const a = await actor(t, 'pro');
      const quiet = await actor(t, 'free');
      const { webhook } = await registerWebhook(a, receiver.url(path('prune')), ['item.created']);
      await capture(a.c, 'delivered');
      await capture(quiet.c, 'nobody listens');
      await t.services.webhookWorker.drain();
      await capture(a.c, 'still retrying');
      await t.services.webhookWorker.drain();
      const [retrying, delivered] = await deliveryLog(a, webhook.id);
      expect([retrying.status, delivered.status]).toEqual(['pending', 'succeeded']);

      t.clock.advance(6 * 24 * 3600_000);
      expect(await t.services.webhookWorker.prune()).toBe(0);
      t.clock.advance(24 * 3600_000 + 1);
      // The delivery log keeps 7 days; the events stay for the change feed.
      expect(await t.services.webhookWorker.prune()).toBe(1);
      expect((await deliveryLog(a, webhook.id)).map((d) => d.id)).toEqual([retrying.id]);
      expect(await outboxIds(quiet.user.id)).toHaveLength(1);
      expect(await outboxIds(a.user.id)).toHaveLength(2);

      t.clock.advance(23 * 24 * 3600_000);
      expect(await t.services.webhookWorker.prune()).toBe(0);
      t.clock.advance(24 * 3600_000);
      expect(await t.services.webhookWorker.prune()).toBe(2);
      expect(await outboxIds(quiet.user.id)).toEqual([]);
      expect(await outboxIds(a.user.id)).toEqual([retrying.event_id]);
      expect((await deliveryLog(a, webhook.id)).map((d) => d.id)).toEqual([retrying.id]);
    });
  });

  describe('two instances on one database', () => {
    let one: TestApp;
    let two: TestApp;
    let secondDb: TestDb;
    const delivered = { one: 0, two: 0 };
    /** Counts the successful attempts each instance made, from its own debug log. */
    const countingLogger = (who: keyof typeof delivered) =>
      pino({ level: 'debug' }, { write: (line: string) => void (line.includes('"webhook delivered"') && (delivered[who] += 1)) });

    beforeAll(async () => {
      const worker = { perWebhook: 16, pollMs: 10 };
      one = await createDeliveryApp(dialect, { certs, worker, logger: countingLogger('one') });
      secondDb = secondConnection(one.db);
      two = await createDeliveryApp(dialect, { certs, worker, db: secondDb, clock: one.clock, logger: countingLogger('two') });
    });
    afterAll(async () => {
      await two?.close();
      await one?.close();
      await secondDb?.destroy();
    });

    it('deliver each of 500 events exactly once to a healthy receiver', async () => {
      const a = await actor(one, 'pro');
      const { webhook } = await registerWebhook(a, receiver.url(path('exactly-once')), ['item.created']);
      for (let i = 0; i < 500; i += 1) await capture(a.c, `event ${i}`);
      const events = await a.events.take();
      expect(events).toHaveLength(500);

      one.services.webhookWorker.start();
      two.services.webhookWorker.start();
      const settled = async () => {
        const row = await one.services.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('webhook_id', '=', webhook.id)
          .where('status', '=', 'succeeded')
          .executeTakeFirstOrThrow();
        return Number(row.n) === 500;
      };
      await waitFor(settled, { timeoutMs: 60_000, intervalMs: 20, what: '500 succeeded deliveries' });
      await Promise.all([one.services.webhookWorker.stop(), two.services.webhookWorker.stop()]);

      const received = receiver.to(path('exactly-once')).map((r) => String(r.headers['x-service-delivery']));
      expect(received).toHaveLength(500);
      expect(new Set(received)).toEqual(new Set(events.map((e) => e.id)));
      const attempts = await one.services.db.selectFrom('webhook_deliveries').select('attempts').where('webhook_id', '=', webhook.id).execute();
      expect(attempts).toHaveLength(500);
      expect(attempts.every((d) => Number(d.attempts) === 1)).toBe(true);
      // Both instances really competed for the same queue.
      expect(delivered.one + delivered.two).toBe(500);
      expect(delivered.one).toBeGreaterThan(0);
      expect(delivered.two).toBeGreaterThan(0);
    }, 120_000);
  });
});
