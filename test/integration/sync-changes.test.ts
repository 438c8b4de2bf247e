import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, outboxEvents, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';
import { registerWebhook } from '../helpers/webhooks.js';
import { decodeChangeCursor, encodeChangeCursor } from '../../src/modules/events/change-cursor.js';

const DAY = 24 * 3600_000;

// The follower tests run a hundred requests side by side; on a busy machine that takes a while.
vi.setConfig({ testTimeout: 120_000 });

/** Follows the feed from `cursor` to its current end in pages of `limit`; answers the changes and where it stopped. */
async function follow(a: Actor, cursor: string | undefined, limit: number): Promise<{ changes: JsonBody[]; cursor: string }> {
  const changes: JsonBody[] = [];
  let at = cursor;
  for (let i = 0; i < 10_000; i += 1) {
    const page = ok(await a.c.get(`changes?limit=${limit}${at ? `&cursor=${at}` : ''}`));
    changes.push(...(page.changes as JsonBody[]));
    at = page.next_cursor as string;
    if (!page.has_more) break;
  }
  return { changes, cursor: at! };
}

/**
 * Follows the feed until `count` changes have come. On PostgreSQL a change shows once every older
 * transaction of the whole server has ended (other test files' included), so it may take a moment.
 */
async function followUntil(a: Actor, cursor: string | undefined, limit: number, count: number): Promise<{ changes: JsonBody[]; cursor: string }> {
  const changes: JsonBody[] = [];
  let at = cursor;
  for (let i = 0; i < 400; i += 1) {
    const step = await follow(a, at, limit);
    changes.push(...step.changes);
    at = step.cursor;
    if (changes.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { changes, cursor: at! };
}

describe.each(DIALECTS)('GET /api/v1/changes (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('answers every event as the webhook body plus a cursor, in commit order, deletions with the item as it was', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'buy milk');
    ok(await a.c.post(`items/${item.id}/toggle`));
    ok(await a.c.patch(`items/${item.id}`, { tags: ['shop'] }));
    const before = ok(await a.c.get(`items/${item.id}`));
    expect((await a.c.delete(`items/${item.id}`)).status).toBe(204);

    await followUntil(a, undefined, 100, 4);
    const page = ok(await a.c.get('changes'));
    expect(Object.keys(page).sort()).toEqual(['changes', 'has_more', 'next_cursor']);
    expect(page.has_more).toBe(false);
    const changes = page.changes as JsonBody[];
    expect(changes.map((c) => c.event)).toEqual(['item.created', 'item.completed', 'item.updated', 'item.deleted']);
    // Exactly what the webhooks get: the stored delivery body, with the cursor added.
    const bodies = await a.events.take();
    expect(changes.map(({ cursor: _c, ...body }) => body)).toEqual(bodies);
    for (const c of changes) expect(Object.keys(c).sort()).toEqual(['created_at', 'cursor', 'data', 'event', 'id']);
    expect(changes[3].data.item).toEqual(before);
    expect(page.next_cursor).toBe(changes[3].cursor);
  });

  it('starts after a change cursor, answers an empty page with a cursor that is never null, and picks up what comes later', async () => {
    const a = await actor(t);
    await capture(a.c, 'one');
    await capture(a.c, 'two');
    await followUntil(a, undefined, 100, 2);
    const first = ok(await a.c.get('changes'));
    const afterFirst = ok(await a.c.get(`changes?cursor=${first.changes[0].cursor}`));
    expect(afterFirst.changes.map((c: JsonBody) => c.data.item.title)).toEqual(['two']);

    const empty = ok(await a.c.get(`changes?cursor=${first.next_cursor}`));
    expect(empty).toEqual({ changes: [], next_cursor: expect.any(String), has_more: false });
    await capture(a.c, 'three');
    const later = await followUntil(a, empty.next_cursor, 100, 1);
    expect(later.changes.map((c: JsonBody) => c.data.item.title)).toEqual(['three']);
  });

  it('pages with limit (default 100, at most 500) and says has_more while more are ready', async () => {
    const a = await actor(t);
    for (let i = 0; i < 5; i += 1) await capture(a.c, `item ${i}`);
    await followUntil(a, undefined, 100, 5);
    const page = ok(await a.c.get('changes?limit=2'));
    expect(page.changes).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const rest = await follow(a, page.next_cursor, 2);
    expect(rest.changes.map((c) => c.data.item.title)).toEqual(['item 2', 'item 3', 'item 4']);
    expect(ok(await a.c.get('changes?limit=100000')).changes).toHaveLength(5);
  });

  it('shows a user only their own changes, and every user has them, with or without webhooks', async () => {
    const a = await actor(t);
    const b = await actor(t);
    await capture(a.c, 'mine');
    await capture(b.c, 'theirs');
    await followUntil(a, undefined, 100, 1);
    await followUntil(b, undefined, 100, 1);
    expect(ok(await a.c.get('changes')).changes.map((c: JsonBody) => c.data.item.title)).toEqual(['mine']);
    expect(ok(await b.c.get('changes')).changes.map((c: JsonBody) => c.data.item.title)).toEqual(['theirs']);
  });

  it('answers 400 to a malformed cursor and changes nothing', async () => {
    const a = await actor(t);
    await capture(a.c, 'x');
    const before = await fingerprint(t.services.db);
    const itemsCursor = ok(await a.c.get('items?limit=1')).next_cursor as string | null;
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const bad = [
      'nope!',
      'abc',
      forged(['changes', -1, 1, 1]),
      forged(['changes', 1.5, 1, 1]),
      forged(['items', 1, 1, 1]),
      forged(['changes', 1, 1]),
      'x'.repeat(600),
    ];
    if (itemsCursor) bad.push(itemsCursor);
    for (const cursor of bad) expectError(await a.c.get(`changes?cursor=${encodeURIComponent(cursor)}`), 400, 'bad_request');
    expectError(await a.c.get('changes?limit=0'), 400, 'bad_request');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('fans events of users without webhooks out without writing them again', async () => {
    const a = await actor(t);
    for (let i = 0; i < 3; i += 1) await capture(a.c, `quiet ${i}`);
    const before = (await fingerprint(t.services.db)).outbox_events;
    const report = await t.services.webhookWorker.drain();
    expect(report).toEqual({ fannedOut: 0, attempted: 0 });
    expect((await fingerprint(t.services.db)).outbox_events).toBe(before);
    expect((await followUntil(a, undefined, 100, 3)).changes).toHaveLength(3);
  });

  it('marks an event dispatched at insert only when its user has no webhook, and a new webhook still gets an event of its own instant', async () => {
    const a = await actor(t, 'pro');
    const dispatched = async () =>
      (await t.services.db.selectFrom('outbox_events').select('dispatched_at').where('user_id', '=', a.user.id).orderBy('seq').execute()).map(
        (r) => r.dispatched_at !== null,
      );
    t.clock.advance(1000);
    await capture(a.c, 'before any webhook');
    t.clock.advance(1000);
    // Written at the instant the webhook is registered, before it was visible: handed back to fan-out.
    await capture(a.c, 'same instant');
    expect(await dispatched()).toEqual([true, true]);
    const { webhook } = await registerWebhook(a, 'https://hooks.example.test/sync', ['item.created']);
    expect(await dispatched()).toEqual([true, false]);
    await capture(a.c, 'after');
    expect(await dispatched()).toEqual([true, false, false]);
    await t.services.webhookWorker.drain(1);
    const log = ok(await a.c.get(`webhooks/${webhook.id}/deliveries`)).deliveries as JsonBody[];
    const titles = await outboxEvents(t, a.user.id);
    const byEvent = new Map(titles.map((e) => [e.id, e.data.item.title]));
    expect(log.map((d) => byEvent.get(d.event_id)).sort()).toEqual(['after', 'same instant']);
  });

  it('a follower reading small pages while 4 writers capture, toggle and delete sees every change exactly once, in order per item', async () => {
    const a = await actor(t);
    const seed = await capture(a.c, 'seed');
    let { cursor } = await followUntil(a, undefined, 3, 1);
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < 8; i += 1) {
        const item = await capture(a.c, `w${w} #${i}`);
        ok(await a.c.post(`items/${item.id}/toggle`));
        if (i % 2 === 0) expect((await a.c.delete(`items/${item.id}`)).status).toBe(204);
        else ok(await a.c.post(`items/${seed.id}/toggle`));
      }
    };
    const seen: JsonBody[] = [];
    let writing = true;
    const writers = Promise.all([0, 1, 2, 3].map(writer)).finally(() => {
      writing = false;
    });
    for (let i = 0; i < 10_000 && writing; i += 1) {
      const step = await follow(a, cursor, 3);
      seen.push(...step.changes);
      cursor = step.cursor;
    }
    await writers;
    const all0 = (await a.events.take()).length - 1;
    seen.push(...(await followUntil(a, cursor, 3, all0 - seen.length)).changes);

    const all = await outboxEvents(t, a.user.id);
    const expected = all.filter((e) => !(e.event === 'item.created' && e.data.item.id === seed.id));
    expect(expected).toHaveLength(4 * 8 * 3);
    const ids = seen.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(expected.map((e) => e.id).sort());
    // Per item, the feed follows the item's own history: created, completed, then deleted.
    const byItem = new Map<string, string[]>();
    for (const c of seen) byItem.set(c.data.item.id, [...(byItem.get(c.data.item.id) ?? []), c.event]);
    for (const [id, events] of byItem) {
      if (id === seed.id) continue;
      expect(events.slice(0, 2)).toEqual(['item.created', 'item.completed']);
    }
    const seedToggles = byItem.get(seed.id)!;
    expect(seedToggles).toEqual(seedToggles.map((_, i) => (i % 2 === 0 ? 'item.completed' : 'item.uncompleted')));
  });
  it('answers a cursor issued in the future 400 naming cursor, on GET /changes and the stream, beyond a few minutes of clock skew', async () => {
    const a = await actor(t);
    await capture(a.c, 'now');
    const { cursor } = await followUntil(a, undefined, 100, 1);
    const now = t.clock.now().getTime();
    const issuedAhead = (ms: number) => encodeChangeCursor({ ...decodeChangeCursor(cursor), issuedAt: now + ms });
    // Opening a stream registers it (live_streams, live_processes) before the cursor is read; that is the stream's, not the cursor's.
    const stored = async () => {
      const { live_processes: _processes, live_streams: _streams, ...rest } = await fingerprint(t.services.db);
      return rest;
    };
    const before = await stored();
    for (const path of ['changes', 'changes/stream']) {
      for (const ahead of [30 * 365 * DAY, 6 * 60_000]) {
        const res = await a.c.get(`${path}?cursor=${issuedAhead(ahead)}`);
        expectError(res, 400, 'bad_request');
        expect(res.body.details).toEqual([{ field: 'cursor', message: expect.stringContaining('future') }]);
      }
    }
    expect(await stored()).toEqual(before);
    // Another process's clock a little ahead of this one's is not the client's fault.
    expect(ok(await a.c.get(`changes?cursor=${issuedAhead(60_000)}`)).changes).toEqual([]);
  });
  it('keeps changes 30 days: a cursor issued longer ago is 410 cursor_expired, a younger one works', async () => {
    const a = await actor(t);
    await capture(a.c, 'old');
    const { cursor } = await followUntil(a, undefined, 100, 1);
    t.clock.advance(30 * DAY);
    expect(ok(await a.c.get(`changes?cursor=${cursor}`)).changes).toEqual([]);
    t.clock.advance(1);
    expectError(await a.c.get(`changes?cursor=${cursor}`), 410, 'cursor_expired');
    // Pruning keeps every event a live cursor can still reach.
    await capture(a.c, 'new');
    const fresh = (await followUntil(a, undefined, 100, 2)).cursor;
    // (Runs last: it moves the shared clock. The worker fans out before it prunes; so does this.)
    await t.services.webhookWorker.drain();
    expect(await t.services.webhookWorker.prune()).toBe(0);
    t.clock.advance(DAY);
    await t.services.webhookWorker.prune();
    expect(ok(await a.c.get('changes')).changes.map((c: JsonBody) => c.data.item.title)).toEqual(['new']);
    expect(ok(await a.c.get(`changes?cursor=${fresh}`)).changes).toEqual([]);
  });
});

/*
 * PostgreSQL runs transactions side by side, and one that took its id first may commit last. A
 * feed that served "everything after the last position" would then pass over the late commit for
 * ever; these tests hold a transaction open on purpose to make that happen.
 */
const POSTGRES = DIALECTS.filter((d) => d === 'postgres');
if (POSTGRES.length > 0) {
  describe.each(POSTGRES)('GET /api/v1/changes with transactions that commit out of order (%s)', (dialect) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(async () => t?.close());

    /** Runs a change in a transaction that stays open until `release` is called. */
    function heldChange(a: Actor, title: string): { written: Promise<void>; release: () => void; done: Promise<void> } {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let written!: () => void;
      const writtenP = new Promise<void>((resolve) => {
        written = resolve;
      });
      const done = t.services.db.transaction().execute(async (trx) => {
        const item = { ...(await capture(a.c, `${title} (template)`)), title };
        await t.services.events.record(trx, a.user.id, [{ name: 'item.updated', item }]);
        written();
        await gate;
      });
      return { written: writtenP, release, done };
    }

    it('never skips a change whose transaction started first and committed last', async () => {
      const a = await actor(t);
      const start = (await follow(a, undefined, 50)).cursor;
      // (A new user: nothing to wait for before this point.)
      const early = heldChange(a, 'early');
      await early.written;
      // Committed while the early transaction (the older id) is still open.
      await capture(a.c, 'late');
      const during = await followUntil(a, start, 1, 1);
      // The late commit is held back (not skipped): nothing after the open transaction is served.
      expect(during.changes.map((c) => c.data.item.title)).toEqual(['early (template)']);
      early.release();
      await early.done;
      const after = await followUntil(a, during.cursor, 1, 2);
      expect(after.changes.map((c) => c.data.item.title)).toEqual(['early', 'late']);
    });

    it('serves many writers whose commits interleave exactly once each to a follower', async () => {
      const a = await actor(t);
      let cursor = (await follow(a, undefined, 50)).cursor;
      const held = Array.from({ length: 3 }, (_, i) => heldChange(a, `held ${i}`));
      await Promise.all(held.map((h) => h.written));
      const seen: JsonBody[] = [];
      // Release them newest first, reading between each commit.
      for (const h of [...held].reverse()) {
        h.release();
        await h.done;
        await capture(a.c, 'between');
        const step = await follow(a, cursor, 2);
        seen.push(...step.changes);
        cursor = step.cursor;
      }
      const all = await a.events.take();
      seen.push(...(await followUntil(a, cursor, 2, all.length - seen.length)).changes);
      expect(all).toHaveLength(3 * 2 + 3);
      expect(new Set(seen.map((c) => c.id)).size).toBe(seen.length);
      expect(seen.map((c) => c.id).sort()).toEqual(all.map((e) => e.id).sort());
    });
  });
}
