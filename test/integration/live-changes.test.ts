import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from '../clients/listening-app.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { openSse, type SseReader } from '../helpers/sse-reader.js';
import type { JsonBody } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

const DAY = 24 * 3600_000;

describe.each(DIALECTS)('GET /api/v1/changes/stream (%s)', (dialect) => {
  let t: ListeningApp;
  const open: SseReader[] = [];
  const stream = async (a: Actor, query = '', headers: Record<string, string> = {}) => {
    const reader = await openSse(`${t.baseUrl}/api/v1/changes/stream${query}`, { authorization: `Bearer ${a.user.token}`, ...headers });
    open.push(reader);
    return reader;
  };
  /** Every change of the user from the start of the feed, as GET /changes answers them (PostgreSQL may show one late). */
  const feed = async (a: Actor, count: number): Promise<JsonBody[]> =>
    waitFor(async () => {
      const page = ok(await a.c.get('changes?limit=500'));
      return page.changes.length >= count ? (page.changes as JsonBody[]) : undefined;
    });

  beforeAll(async () => {
    // No process heartbeat (a query a process makes every 20 s while it has streams) in the tests' windows.
    t = await startListeningApp(dialect, { live: { keepAliveMs: 100, processHeartbeatMs: 3_600_000 } });
  });
  afterAll(async () => {
    for (const reader of open) reader.close();
    await t?.close();
  });

  it('starts at the newest change and sends each later change as id: cursor, event: change, data: the change of GET /changes', async () => {
    const a = await actor(t);
    await capture(a.c, 'before the stream');
    const s = await stream(a);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    // Opening counts as one request: the rate-limit headers come with it.
    expect(s.headers['x-ratelimit-limit']).toBeDefined();
    const item = await capture(a.c, 'after the stream opened');
    const [event] = await s.waitForEvents(1);
    const changes = await feed(a, 2);
    expect(event!.event).toBe('change');
    expect(event!.id).toBe(JSON.parse(event!.data).cursor);
    const { cursor: _c1, ...streamed } = JSON.parse(event!.data);
    const { cursor: _c2, ...listed } = changes[1];
    expect(streamed).toEqual(listed);
    expect(streamed.data.item.id).toBe(item.id);
    expect(s.events).toHaveLength(1);
  });

  it('resumes after ?cursor= and after Last-Event-ID with no gap and no repeat (Last-Event-ID wins)', async () => {
    const a = await actor(t);
    for (const text of ['one', 'two', 'three', 'four']) await capture(a.c, text);
    const changes = await feed(a, 4);
    const byCursor = await stream(a, `?cursor=${changes[0].cursor}`);
    await byCursor.waitForEvents(3);
    expect(byCursor.events.map((e) => JSON.parse(e.data).id)).toEqual(changes.slice(1).map((c) => c.id));
    const byHeader = await stream(a, `?cursor=${changes[0].cursor}`, { 'last-event-id': changes[2].cursor });
    await byHeader.waitForEvents(1);
    expect(byHeader.events.map((e) => e.id)).toEqual([changes[3].cursor]);
    // A reconnect from the last id it got: nothing again, then the next change once.
    const again = await stream(a, '', { 'last-event-id': byCursor.events[2]!.id! });
    await capture(a.c, 'five');
    await again.waitForEvents(1);
    await byCursor.waitForEvents(4);
    expect(JSON.parse(again.events[0]!.data).data.item.title).toBe('five');
    expect(byCursor.events.map((e) => e.id)).toEqual([...changes.slice(1).map((c) => c.cursor), again.events[0]!.id]);
  });

  it('sends many changes in order, each once, while they are committed', async () => {
    const a = await actor(t);
    const s = await stream(a);
    const texts = Array.from({ length: 30 }, (_, i) => `item ${i}`);
    await Promise.all(texts.map((text) => capture(a.c, text)));
    const events = await s.waitForEvents(30);
    const changes = await feed(a, 30);
    expect(events.map((e) => e.id)).toEqual(changes.map((c) => c.cursor));
    expect(new Set(events.map((e) => JSON.parse(e.data).id)).size).toBe(30);
  });

  it('wakes only the streams of the user whose change it is', async () => {
    const a = await actor(t);
    const b = await actor(t);
    const sa = await stream(a);
    const sb = await stream(b);
    await capture(b.c, 'for b');
    await sb.waitForEvents(1);
    await capture(a.c, 'for a');
    await sa.waitForEvents(1);
    expect(sa.events.map((e) => JSON.parse(e.data).data.item.title)).toEqual(['for a']);
    expect(sb.events.map((e) => JSON.parse(e.data).data.item.title)).toEqual(['for b']);
  });

  it('sends a keep-alive comment on the interval, and an idle stream costs no query', async () => {
    const a = await actor(t);
    const s = await stream(a);
    await s.waitForEvents(0);
    t.queries.reset();
    await waitFor(() => s.comments.length >= 3, { what: 'three keep-alive comments' });
    expect(s.comments[0]).toMatch(/heartbeat/);
    expect(t.queries.count).toBe(0);
  });

  it('answers a malformed cursor 400 and an expired one 410 cursor_expired, as JSON before any stream', async () => {
    const a = await actor(t);
    await capture(a.c, 'x');
    const [change] = await feed(a, 1);
    const bad = await stream(a, '?cursor=not-a-cursor');
    await bad.waitForEnd();
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toBe('bad_request');
    const badHeader = await stream(a, '', { 'last-event-id': 'garbage' });
    await badHeader.waitForEnd();
    expect(badHeader.status).toBe(400);
    t.clock.advance(31 * DAY);
    try {
      const expired = await stream(a, `?cursor=${change.cursor}`);
      await expired.waitForEnd();
      expect(expired.status).toBe(410);
      expect(JSON.parse(expired.body)).toMatchObject({ error: 'cursor_expired' });
    } finally {
      t.clock.advance(-31 * DAY);
    }
  });

  it('allows 10 open streams a user: the 11th is 429 too_many_streams, and one closed makes room', async () => {
    const a = await actor(t);
    const streams = [];
    for (let i = 0; i < 10; i += 1) streams.push(await stream(a));
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
    const eleventh = await stream(a);
    await eleventh.waitForEnd();
    expect(eleventh.status).toBe(429);
    expect(JSON.parse(eleventh.body)).toMatchObject({ error: 'too_many_streams' });
    // Another user is not affected.
    const b = await actor(t);
    expect((await stream(b)).status).toBe(200);
    streams[0]!.close();
    const again = await waitFor(async () => {
      const s = await stream(a);
      if (s.status === 200) return s;
      s.close();
      return undefined;
    });
    expect(again.status).toBe(200);
    for (const s of streams) s.close();
  });

  it('counts the cap across processes on one database; a process gone without closing its streams stops counting', async () => {
    const a = await actor(t);
    const other = await startListeningApp(dialect, { db: t.db, live: { keepAliveMs: 100 } });
    try {
      const onOther = async () => {
        const reader = await openSse(`${other.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${a.user.token}` });
        open.push(reader);
        return reader;
      };
      const here = [];
      for (let i = 0; i < 4; i += 1) here.push(await stream(a));
      const there = [];
      for (let i = 0; i < 6; i += 1) there.push(await onOther());
      expect([...here, ...there].map((s) => s.status)).toEqual(Array(10).fill(200));
      for (const eleventh of [await stream(a), await onOther()]) {
        await eleventh.waitForEnd();
        expect(eleventh.status).toBe(429);
      }
      // The other process stops renewing its row (killed): after a minute its six streams no longer count.
      const rows = await sql<{ process_id: string; n: number | string }>`select process_id, count(*) as n from live_streams
        where user_id = ${a.user.id} group by process_id`.execute(t.services.db);
      const gone = rows.rows.find((r) => Number(r.n) === 6)!.process_id;
      await sql`update live_processes set seen_at = ${'2000-01-01T00:00:00.000Z'} where id = ${gone}`.execute(t.services.db);
      const after = await stream(a);
      expect(after.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('ends a stream when its key expires', async () => {
    const a = await actor(t);
    const key = await t.services.keys.mint(a.user.id, 'expiring', { expiresInDays: 1 });
    const s = await openSse(`${t.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${key.token}` });
    open.push(s);
    expect(s.status).toBe(200);
    t.clock.advance(DAY);
    try {
      await s.waitForEnd(5_000);
    } finally {
      t.clock.advance(-DAY);
    }
  });

  it("ends a revoked key's streams within 5 s, and a key without the read scope gets 403", async () => {
    const a = await actor(t);
    const s = await stream(a);
    const other = await t.services.keys.mint(a.user.id, 'second');
    const kept = await openSse(`${t.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${other.token}` });
    open.push(kept);
    await t.services.keys.revoke(a.user.keyId);
    await s.waitForEnd(5_000);
    expect(kept.ended).toBe(false);
    const captureOnly = await t.services.keys.mint(a.user.id, 'capture only', { scopes: ['capture'] });
    const refused = await openSse(`${t.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${captureOnly.token}` });
    await refused.waitForEnd();
    expect(refused.status).toBe(403);
  });

  /** A LISTEN of its own on cin_changes; `upTo` waits for a marker it notifies itself and answers what came before it. */
  async function ownListener() {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: t.db.url });
    const heard: string[] = [];
    client.on('notification', (message) => heard.push(message.payload ?? ''));
    await client.connect();
    await client.query('listen cin_changes');
    let markers = 0;
    return {
      /** Notifications are delivered in commit order: whatever a commit before the marker sent is here once the marker is. */
      async upTo(): Promise<string[]> {
        const marker = `marker:${++markers}`;
        await sql`select pg_notify('cin_changes', ${marker})`.execute(t.services.db);
        await waitFor(async () => heard.includes(marker) || undefined);
        return heard.splice(0).filter((payload) => !payload.startsWith('marker:'));
      },
      close: () => client.end(),
    };
  }

  it.runIf(dialect === 'postgres')('notifies a change only when its user has a stream open (a NOTIFY serializes every notifying commit)', async () => {
    const listener = await ownListener();
    try {
      const a = await actor(t);
      await capture(a.c, 'nobody is watching');
      expect(await listener.upTo()).not.toContain(`u:${a.user.id}`);
      const s = await stream(a);
      await capture(a.c, 'a stream is open');
      expect(await listener.upTo()).toContain(`u:${a.user.id}`);
      await s.waitForEvents(1, 5_000);
      s.close();
      await waitFor(
        async () =>
          (await sql<{ n: number }>`select count(*)::int as n from live_streams where user_id = ${a.user.id}`.execute(t.services.db)).rows[0]!.n === 0 ||
          undefined,
      );
      await capture(a.c, 'closed again');
      expect(await listener.upTo()).not.toContain(`u:${a.user.id}`);
    } finally {
      await listener.close();
    }
  });

  it.runIf(dialect === 'postgres')('opens a stream only after the writes of its user under way have committed, so its first read has them', async () => {
    const a = await actor(t);
    await capture(a.c, 'first');
    const { changes, next_cursor } = ok(await a.c.get('changes'));
    const { default: pg } = await import('pg');
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query(`set search_path to ${t.db.searchPath}`);
      // A write under way: a copy of the capture's change, inserted and not yet committed.
      const copyId = randomUUID();
      await writer.query('begin');
      await writer.query(
        `insert into outbox_events (id, user_id, event, item_id, payload, created_at)
         select $1, user_id, event, item_id, replace(payload, id, $1), created_at from outbox_events where id = $2`,
        [copyId, changes[0].id],
      );
      const opening = stream(a, `?cursor=${next_cursor}`);
      const waitingOnLock = async () =>
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory' and query ilike 'insert into "live_streams"%'`.execute(
            t.services.db,
          )
        ).rows[0]!.n > 0 || undefined;
      await waitFor(waitingOnLock);
      await writer.query('commit');
      const s = await opening;
      await s.waitForEvents(1, 5_000);
      expect(JSON.parse(s.events[0]!.data).id).toBe(copyId);
    } finally {
      await writer.end();
    }
  });

  it.runIf(dialect === 'postgres')('recovers a change whose notification was lost while LISTEN reconnected, by reading the feed', async () => {
    const a = await actor(t);
    const s = await stream(a);
    const listeners = async () =>
      (
        await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen cin_changes%'`.execute(
          t.services.db,
        )
      ).rows.map((r) => r.pid);
    const before = await waitFor(async () => {
      const pids = await listeners();
      return pids.length > 0 ? pids : undefined;
    });
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where pid in (${sql.join(before)})`.execute(t.services.db);
    // Committed while no connection listens: its notification is lost.
    await capture(a.c, 'while reconnecting');
    await s.waitForEvents(1, 5_000);
    expect(JSON.parse(s.events[0]!.data).data.item.title).toBe('while reconnecting');
    const after = await listeners();
    expect(after.some((pid) => !before.includes(pid))).toBe(true);
  });
});
