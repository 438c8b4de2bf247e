import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok } from '../helpers/items.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';
import { audioFile, encodeForm, LIBRIVOX_DIR, makeTempDir } from '../helpers/voice.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

// One real pocketsphinx run (the voice upload).
vi.setConfig({ testTimeout: 90_000 });

const DAY = 24 * 3600_000;
const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random().toString(36).slice(2)}` });
const itemCount = async (t: TestApp, userId: string) =>
  Number(
    (
      await t.services.db
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(DIALECTS)('Idempotency-Key on POST (%s)', (dialect) => {
  let t: TestApp;
  const temp = makeTempDir('idempotency-voice');
  beforeAll(async () => {
    t = await createTestApp(dialect, { voice: { tempRoot: temp.dir } });
  });
  afterAll(async () => {
    await t?.close();
    temp.remove();
  });

  it('runs the first request, replays its status and body with Idempotent-Replayed: true, and changes nothing on the replay', async () => {
    const a = await actor(t);
    const k = key('capture');
    const first = await a.c.post('capture', { text: 'buy milk' }, k);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await fingerprint(t.services.db);
    const again = await a.c.post('capture', { text: 'buy milk' }, k);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await fingerprint(t.services.db)).toEqual(before);
    expect(await itemCount(t, a.user.id)).toBe(1);
  });

  it('20 concurrent requests with one key create one item; the others replay it or get 409 with Retry-After: 1', async () => {
    const a = await actor(t);
    const k = key('burst');
    const answers = await Promise.all(Array.from({ length: 20 }, () => a.c.post('capture', { text: 'only once' }, k)));
    expect(await itemCount(t, a.user.id)).toBe(1);
    const created = answers.filter((r) => r.status === 201);
    const busy = answers.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThan(0);
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const r of created) expect(r.body.id).toBe(created[0]!.body.id);
    for (const r of busy) {
      expectError(r, 409, 'conflict');
      expect(r.headers['retry-after']).toBe('1');
    }
  });

  it('a replayed toggle does not toggle again', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'flip me');
    const k = key('toggle');
    expect(ok(await a.c.post(`items/${item.id}/toggle`, undefined, k)).is_completed).toBe(true);
    await a.events.take();
    const replay = await a.c.post(`items/${item.id}/toggle`, undefined, k);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(ok(replay).is_completed).toBe(true);
    expect(ok(await a.c.get(`items/${item.id}`)).is_completed).toBe(true);
    expect(await a.events.take()).toEqual([]);
  });

  it('answers 422 idempotency_key_reused to the same key with another body or path, and changes nothing', async () => {
    const a = await actor(t);
    const k = key('reuse');
    const item = await capture(a.c, 'first', {});
    ok(await a.c.post('capture', { text: 'first' }, k), 201);
    const before = await fingerprint(t.services.db);
    expectError(await a.c.post('capture', { text: 'second' }, k), 422, 'idempotency_key_reused');
    expectError(await a.c.post(`items/${item.id}/toggle`, undefined, k), 422, 'idempotency_key_reused');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('keeps keys per user: another user may use the same key', async () => {
    const a = await actor(t);
    const b = await actor(t);
    const k = key('shared');
    ok(await a.c.post('capture', { text: 'a' }, k), 201);
    const theirs = await b.c.post('capture', { text: 'b' }, k);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps 4xx answers too: a replayed 404 is the same 404', async () => {
    const a = await actor(t);
    const k = key('notfound');
    const first = await a.c.post('items/0190f5e2-7c3a-7b1d-9e2f-123456789abc/toggle', undefined, k);
    expectError(first, 404, 'not_found');
    const again = await a.c.post('items/0190f5e2-7c3a-7b1d-9e2f-123456789abc/toggle', undefined, k);
    expectError(again, 404, 'not_found');
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps nothing for a 5xx answer: the key can be retried and then runs', async () => {
    const a = await actor(t);
    const k = key('fail');
    const spy = vi.spyOn(t.services.capture, 'capture').mockRejectedValueOnce(new Error('the database went away'));
    try {
      expectError(await a.c.post('capture', { text: 'retry me' }, k), 500, 'internal_error');
    } finally {
      spy.mockRestore();
    }
    const retry = await a.c.post('capture', { text: 'retry me' }, k);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await itemCount(t, a.user.id)).toBe(1);
  });

  it('answers 409 while another instance runs the first request, and takes over a claim whose process died', async () => {
    const a = await actor(t);
    const k = key('instances');
    // Another instance on the same database holds the key (its request is running).
    const other = await createTestApp(dialect, { db: t.db, clock: t.clock });
    try {
      const held = await other.services.idempotency.begin(a.user.id, k['idempotency-key'], 'its own request');
      expect(held.kind).toBe('run');
      const busy = await a.c.post('capture', { text: 'wait' }, k);
      expectError(busy, 409, 'conflict');
      expect(busy.headers['retry-after']).toBe('1');
      expect(await itemCount(t, a.user.id)).toBe(0);
      // Ten minutes on, nobody holds it any more.
      t.clock.advance(10 * 60_000);
      const ran = await a.c.post('capture', { text: 'wait' }, k);
      expect(ran.status).toBe(201);
      // The dead request's late answer neither replaces the kept one nor frees the key.
      if (held.kind !== 'run') throw new Error('expected a claim');
      await other.services.idempotency.complete(held.claim, { status: 500, headers: {}, body: 'late' });
      await other.services.idempotency.release(held.claim);
      const replay = await a.c.post('capture', { text: 'wait' }, k);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(ran.text);
    } finally {
      await other.close();
    }
  });

  it('keeps an answer 24 hours; after that the key runs again', async () => {
    const a = await actor(t);
    const k = key('day');
    ok(await a.c.post('capture', { text: 'daily' }, k), 201);
    t.clock.advance(DAY - 1);
    expect((await a.c.post('capture', { text: 'daily' }, k)).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(1);
    const later = await a.c.post('capture', { text: 'daily' }, k);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await itemCount(t, a.user.id)).toBe(2);
  });

  it('answers 400 to an empty, too long or non-printable key, and changes nothing', async () => {
    const a = await actor(t);
    ok(await a.c.get('me')); // the key's last use is recorded now, not by the refused requests
    const before = await fingerprint(t.services.db);
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9', 'del\u007f']) {
      expectError(await a.c.post('capture', { text: 'never' }, { 'idempotency-key': bad }), 400, 'bad_request');
    }
    expect(await fingerprint(t.services.db)).toEqual(before);
    expect((await a.c.post('capture', { text: 'fine' }, { 'idempotency-key': 'x'.repeat(255) })).status).toBe(201);
  });

  it('ignores a key on GET and on the pairing endpoints', async () => {
    const a = await actor(t);
    ok(await a.c.get('items', { 'idempotency-key': '' }));
    const anonymous = client(t.app);
    const start = await anonymous.post('connect/start', { state: 'x'.repeat(32), label: 'agent' }, { 'idempotency-key': '' });
    expect(start.status).toBe(200);
  });

  it('keeps nothing for 401 and 429 answers', async () => {
    const limited = await createTestApp(dialect, {
      db: t.db,
      clock: t.clock,
      limits: { free: { perMinute: 1, perDay: 1000 }, pro: { perMinute: 1, perDay: 1000 }, aiDailyQuota: 10, pairingPerMinute: 10 },
    });
    try {
      const user = await createUser(limited);
      const c = client(limited.app, user.token);
      const k = key('limited');
      expect((await client(limited.app, 'cin_bad_token').post('capture', { text: 'x' }, k)).status).toBe(401);
      ok(await c.get('me'));
      expectError(await c.post('capture', { text: 'limited' }, k), 429, 'rate_limited');
      t.clock.advance(61_000);
      const ran = await c.post('capture', { text: 'limited' }, k);
      expect(ran.status).toBe(201);
      expect(ran.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      await limited.close();
    }
  });

  it.skipIf(lacking(FFMPEG, POCKETSPHINX))('works for multipart voice uploads: the same form replays, another file with the key is 422', async () => {
    const pro = await actor(t, 'pro');
    const k = key('voice');
    const clip = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0880.wav');
    const form = await encodeForm([audioFile(clip)]);
    const send = (body: Buffer, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/voice/transcribe',
        headers: { authorization: `Bearer ${pro.user.token}`, 'content-type': contentType, ...k },
        payload: body,
      });
    const first = await send(form.body, form.contentType);
    expect(first.statusCode, first.body).toBe(200);
    const again = await send(form.body, form.contentType);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const other = await encodeForm([{ ...audioFile(clip), filename: 'other-name.wav' }]);
    const reused = await send(other.body, other.contentType);
    expect(reused.statusCode).toBe(422);
    expect(JSON.parse(reused.body).error).toBe('idempotency_key_reused');
    expect(temp.entries()).toEqual([]);
  });
});
