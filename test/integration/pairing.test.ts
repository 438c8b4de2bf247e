import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { expectError, ok } from '../helpers/items.js';
import { UNLIMITED, client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { newState, signedInBrowser, type WebClient } from '../helpers/web-client.js';

const TEN_MINUTES = 10 * 60_000;

describe.each(DIALECTS)('pairing API (%s)', (dialect) => {
  let t: TestApp;
  const api = () => client(t.app);
  let alice: { web: WebClient; email: string; userId: string };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    alice = await signedInBrowser(t);
  });
  afterAll(async () => t?.close());

  const start = (state: string, label = 'Test agent') => api().post('connect/start', { state, label });
  const exchange = (state: string) => api().post('connect/exchange', { state });
  /** The signed-in browser approves (or denies) on the approval page, as a person would. */
  async function decide(web: WebClient, state: string, decision: 'approve' | 'deny') {
    const page = `/connect/agent?state=${state}`;
    const res = await web.submit(page, '/connect/agent', { state, decision });
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    return res;
  }

  describe('POST /api/v1/connect/start', () => {
    it('answers { ok: true, expires_at } ten minutes ahead, without a key', async () => {
      const body = ok(await start(newState()));
      expect(body).toEqual({ ok: true, expires_at: new Date(t.clock.now().getTime() + TEN_MINUTES).toISOString() });
    });

    it('refuses a malformed state or label with 400 and writes nothing', async () => {
      const before = await fingerprint(t.services.db);
      const bad: unknown[] = [
        { state: 'short', label: 'x' },
        { state: `${newState()}x`, label: 'x' },
        { state: `${newState().slice(0, 31)}!`, label: 'x' },
        { state: `${newState().slice(0, 31)}=`, label: 'x' },
        { state: newState(), label: '' },
        { state: newState(), label: '   ' },
        { state: newState(), label: 'x'.repeat(101) },
        { state: newState(), label: 7 },
        { state: newState() },
        { label: 'x' },
        { state: 1.2345678901234567e31, label: 'x' },
        { state: newState(), label: 'x', expires_in_days: 0 },
        { state: newState(), label: 'x', expires_in_days: 3651 },
        { state: newState(), label: 'x', expires_in_days: 1.5 },
        { state: newState(), label: 'x', expires_in_days: '7' },
        { state: newState(), label: 'x', expires_in_days: null },
      ];
      for (const body of bad) expectError(await api().post('connect/start', body), 400, 'bad_request');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('accepts a label of exactly 100 characters', async () => {
      ok(await start(newState(), 'ü'.repeat(100)));
    });

    it('answers 409 conflict to a reused state and changes nothing', async () => {
      const state = newState();
      ok(await start(state, 'first'));
      const before = await fingerprint(t.services.db);
      expectError(await start(state, 'second'), 409, 'conflict');
      expect(await fingerprint(t.services.db)).toEqual(before);
      await decide(alice.web, state, 'approve');
      // The key carries the first label: the refused start changed nothing.
      ok(await exchange(state));
      const keys = await t.services.keys.list(alice.userId);
      expect(keys.some((k) => k.label === 'first')).toBe(true);
      expect(keys.some((k) => k.label === 'second')).toBe(false);
    });
  });

  describe('POST /api/v1/connect/exchange', () => {
    it('answers 404 not_found for an unknown state and 400 for a malformed one', async () => {
      expectError(await exchange(newState()), 404, 'not_found');
      expectError(await exchange('not-a-state'), 400, 'bad_request');
      expectError(await api().post('connect/exchange', {}), 400, 'bad_request');
    });

    it('answers 425 not_approved with Retry-After: 2 until the user approves', async () => {
      const state = newState();
      ok(await start(state));
      const res = await exchange(state);
      expectError(res, 425, 'not_approved');
      expect(res.headers['retry-after']).toBe('2');
    });

    it('hands out { token, key_id } once after approval: a key of the approving user, labelled with the pairing label', async () => {
      const state = newState();
      ok(await start(state, 'Claude Desktop'));
      await decide(alice.web, state, 'approve');
      const res = await exchange(state);
      const body = ok(res);
      expect(Object.keys(body).sort()).toEqual(['expires_at', 'key_id', 'scopes', 'token']);
      expect(body.expires_at).toBeNull();
      expect(body.scopes).toEqual(['read', 'capture', 'write', 'webhooks']);
      expect(body.token).toMatch(/^cin_[a-z0-9]{8}_[A-Za-z0-9]{32,}$/);
      expect(res.headers['cache-control']).toBe('no-store');
      const me = ok(await client(t.app, body.token).get('me'));
      expect(me).toMatchObject({ id: alice.userId, email: alice.email });
      const key = (await t.services.keys.list(alice.userId)).find((k) => k.id === body.key_id);
      expect(key).toMatchObject({ label: 'Claude Desktop', revoked_at: null });
      // The token itself is stored nowhere: no column of any table holds it.
      const dump =
        JSON.stringify(await t.services.db.selectFrom('api_keys').selectAll().execute()) +
        JSON.stringify(await t.services.db.selectFrom('pairings').selectAll().execute());
      expect(dump).not.toContain(body.token.split('_')[2]);
      expect(dump).not.toContain(state);

      expectError(await exchange(state), 409, 'already_exchanged');
      expectError(await exchange(state), 409, 'already_exchanged');
      // Still 409 after the ten minutes: the outcome is final.
      t.clock.advance(TEN_MINUTES + 1);
      expectError(await exchange(state), 409, 'already_exchanged');
    });

    it('mints a key that stops working expires_in_days after the exchange, and says so on the approval page', async () => {
      const state = newState();
      ok(await api().post('connect/start', { state, label: 'Phone calendar', scopes: ['read', 'write'], expires_in_days: 30 }));
      const page = await alice.web.get(`/connect/agent?state=${state}`);
      expect(page.body).toContain('<dt>Key works</dt><dd>for 30 days after approval, or until you revoke it</dd>');
      await decide(alice.web, state, 'approve');
      t.clock.advance(60_000);
      const body = ok(await exchange(state));
      const until = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString();
      expect(body).toMatchObject({ scopes: ['read', 'write'], expires_at: until });
      expect((await t.services.keys.list(alice.userId)).find((k) => k.id === body.key_id)).toMatchObject({ label: 'Phone calendar', expires_at: until });
      ok(await client(t.app, body.token).get('me'));
      const now = t.clock.now();
      t.clock.set(new Date(until));
      expectError(await client(t.app, body.token).get('me'), 401, 'unauthorized');
      // Back, for the other cases' browser session.
      t.clock.set(now);
    });

    it('answers 403 access_denied after the user denies, and mints nothing', async () => {
      const state = newState();
      ok(await start(state, 'Unwanted'));
      const keysBefore = (await t.services.keys.list(alice.userId)).length;
      await decide(alice.web, state, 'deny');
      expectError(await exchange(state), 403, 'access_denied');
      expectError(await exchange(state), 403, 'access_denied');
      expect(await t.services.keys.list(alice.userId)).toHaveLength(keysBefore);
    });

    it('answers 410 expired ten minutes after the start, pending or approved, for at least 24 hours', async () => {
      const pending = newState();
      const approved = newState();
      ok(await start(pending));
      ok(await start(approved));
      await decide(alice.web, approved, 'approve');
      t.clock.advance(TEN_MINUTES - 1);
      expectError(await exchange(pending), 425, 'not_approved');
      t.clock.advance(1);
      expectError(await exchange(pending), 410, 'expired');
      expectError(await exchange(approved), 410, 'expired');
      t.clock.advance(24 * 60 * 60_000);
      expectError(await exchange(pending), 410, 'expired');
      // A later start forgets states that expired more than 24 hours ago: they are unknown from then on.
      t.clock.advance(1);
      ok(await start(newState()));
      expectError(await exchange(pending), 404, 'not_found');
    });

    it('gives exactly one token to concurrent exchanges of one approved state', async () => {
      for (let round = 0; round < 5; round += 1) {
        const state = newState();
        const label = `race ${round}`;
        ok(await start(state, label));
        await decide(alice.web, state, 'approve');
        const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(state)));
        const statuses = answers.map((r) => r.status).sort();
        expect(statuses, answers.map((r) => r.text).join('\n')).toEqual([200, 409, 409, 409]);
        for (const r of answers.filter((a) => a.status === 409)) expect(r.body.error).toBe('already_exchanged');
        const winner = answers.find((r) => r.status === 200)!;
        const keys = (await t.services.keys.list(alice.userId)).filter((k) => k.label === label);
        expect(keys.map((k) => k.id)).toEqual([winner.body.key_id]);
        ok(await client(t.app, winner.body.token).get('me'));
      }
    });
  });
});

describe.each(DIALECTS)('pairing routes share a per-IP budget (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: { ...UNLIMITED, pairingPerMinute: 3 } });
  });
  afterAll(async () => t?.close());

  it('answers 429 rate_limited with Retry-After once start and exchange together pass the budget', async () => {
    const api = client(t.app);
    const state = newState();
    ok(await api.post('connect/start', { state, label: 'poller' }));
    expectError(await api.post('connect/exchange', { state }), 425, 'not_approved');
    t.clock.advance(2000); // at the announced pace, so only the per-IP budget refuses
    expectError(await api.post('connect/exchange', { state }), 425, 'not_approved');
    t.clock.advance(2000);
    const limited = await api.post('connect/exchange', { state });
    expectError(limited, 429, 'rate_limited');
    expect(limited.body).toMatchObject({ scope: 'minute', limit_per_minute: 3 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60_000);
    expectError(await api.post('connect/exchange', { state }), 425, 'not_approved');
  });
});
