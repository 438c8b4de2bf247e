import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { expectError, ok } from '../helpers/items.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, newState, signedInBrowser, webClient, type WebClient } from '../helpers/web-client.js';

interface Person {
  web: WebClient;
  email: string;
  userId: string;
}

describe.each(DIALECTS)('web pairing approval /connect/agent (%s)', (dialect) => {
  let t: TestApp;
  let alice: Person;
  let bob: Person;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    alice = await signedInBrowser(t);
    bob = await signedInBrowser(t);
  });
  afterAll(async () => t?.close());

  const api = () => client(t.app);
  async function started(label = 'Claude Desktop'): Promise<string> {
    const state = newState();
    ok(await api().post('connect/start', { state, label }));
    return state;
  }
  const page = (state: string) => `/connect/agent?state=${state}`;
  const decide = (who: Person, state: string, decision: string, extra: Record<string, string> = {}) =>
    who.web.submit(page(state), '/connect/agent', { state, decision, ...extra });

  describe('GET', () => {
    it('sends a signed-out browser to sign in, and the sign-in back to the same page', async () => {
      const state = await started();
      const web = webClient(t.app);
      const first = await web.get(page(state));
      expect(first.status).toBe(303);
      expect(first.location).toBe(`/login?next=${encodeURIComponent(page(state))}`);
      const login = await web.get(first.location!);
      expect(login.body).toContain('Sign in to review the app');
      const signedIn = await web.postRaw('/login', { _csrf: csrfOf(login.body), email: alice.email, password: 'correct horse battery', next: page(state) });
      expect(signedIn.location).toBe(page(state));
      expect((await web.get(page(state))).status).toBe(200);
    });

    it("shows the client's label (escaped), when it asked, the account it is for, and Approve and Deny; it cannot be framed", async () => {
      const state = await started('<b>Evil</b> agent');
      t.clock.advance(2 * 60_000);
      const res = await alice.web.get(page(state));
      expect(res.status).toBe(200);
      expect(res.body).toContain('&lt;b&gt;Evil&lt;/b&gt; agent');
      expect(res.body).not.toContain('<b>Evil</b>');
      expect(res.body).toContain(alice.email);
      expect(res.body).toMatch(/<dt>Requested<\/dt><dd><time datetime="[^"]+">\d\d:\d\d UTC<\/time> \(2 minutes ago\)<\/dd>/);
      expect(res.body).toContain('value="approve"');
      expect(res.body).toContain('value="deny"');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
    });

    it('changes nothing: the exchange still answers 425', async () => {
      const state = await started();
      await alice.web.get(page(state));
      await alice.web.get(page(state));
      expectError(await api().post('connect/exchange', { state }), 425, 'not_approved');
    });

    it('answers unknown, malformed or missing states with a clear 404 page, signed in or not', async () => {
      for (const web of [alice.web, webClient(t.app)]) {
        for (const url of [page(newState()), page('short'), '/connect/agent', `${page(newState())}x`]) {
          const res = await web.get(url);
          expect(res.status, url).toBe(404);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(res.body).toContain('This link is not valid');
          expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        }
      }
    });

    it('refuses a NUL character with a 400 page, not a database error', async () => {
      const res = await alice.web.get(`${page(newState())}%00`);
      expect(res.status).toBe(400);
      expect(res.body).toContain('NUL');
    });

    it('answers an expired link with a clear 410 page', async () => {
      const state = await started();
      t.clock.advance(10 * 60_000);
      const res = await alice.web.get(page(state));
      expect(res.status).toBe(410);
      expect(res.body).toContain('This link has expired');
      expect((await decide(alice, state, 'approve')).status).toBe(410);
      expectError(await api().post('connect/exchange', { state }), 410, 'expired');
    });
  });

  describe('POST', () => {
    it('approves for the signed-in user: the exchanged key is theirs, labelled with the pairing label', async () => {
      const state = await started('Cursor');
      const res = await decide(alice, state, 'approve');
      expect(res.status).toBe(200);
      expect(res.body).toContain('<h1>Approved</h1>');
      const key = ok(await api().post('connect/exchange', { state }));
      expect(ok(await client(t.app, key.token).get('me')).id).toBe(alice.userId);
      expect((await t.services.keys.list(alice.userId)).find((k) => k.id === key.key_id)?.label).toBe('Cursor');
      // Coming back to the link shows what happened; for anyone else it is used.
      expect((await alice.web.get(page(state))).body).toContain('<h1>Approved</h1>');
      expect((await bob.web.get(page(state))).status).toBe(409);
    });

    it('denies: the exchange answers 403 and no key is made', async () => {
      const state = await started();
      const before = (await t.services.keys.list(alice.userId)).length;
      const res = await decide(alice, state, 'deny');
      expect(res.status).toBe(200);
      expect(res.body).toContain('<h1>Denied</h1>');
      expectError(await api().post('connect/exchange', { state }), 403, 'access_denied');
      expect(await t.services.keys.list(alice.userId)).toHaveLength(before);
    });

    it('needs a decision, a CSRF token and a signed-in browser', async () => {
      const state = await started();
      expect((await decide(alice, state, 'maybe')).status).toBe(400);
      const token = csrfOf((await alice.web.get(page(state))).body);
      expect((await alice.web.postRaw('/connect/agent', { state, decision: 'approve' })).status).toBe(403);
      expect(
        (await alice.web.postRaw('/connect/agent', { _csrf: `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`, state, decision: 'approve' })).status,
      ).toBe(403);
      const anonymous = webClient(t.app);
      const anonymousPage = await anonymous.get('/login');
      const res = await anonymous.postRaw('/connect/agent', { _csrf: csrfOf(anonymousPage.body), state, decision: 'approve' });
      expect(res.location).toBe(`/login?next=${encodeURIComponent(page(state))}`);
      expectError(await api().post('connect/exchange', { state }), 425, 'not_approved');
    });
  });

  describe("one user's session cannot approve a pairing into another user's account", () => {
    it('the key always belongs to the approving session, whatever account the form names', async () => {
      const state = await started('Bob agent');
      await decide(bob, state, 'approve', { user_id: alice.userId, email: alice.email, userId: alice.userId });
      const key = ok(await api().post('connect/exchange', { state }));
      expect(ok(await client(t.app, key.token).get('me')).id).toBe(bob.userId);
      expect((await t.services.keys.list(alice.userId)).some((k) => k.id === key.key_id)).toBe(false);
    });

    it("a CSRF token is bound to its own session: Bob's token does not work with Alice's session", async () => {
      const state = await started();
      const bobsToken = csrfOf((await bob.web.get(page(state))).body);
      const forged = await alice.web.postRaw('/connect/agent', { _csrf: bobsToken, state, decision: 'approve' });
      expect(forged.status).toBe(403);
      expectError(await api().post('connect/exchange', { state }), 425, 'not_approved');
    });

    it("another site cannot post Alice's approval, even holding a valid token", async () => {
      const state = await started();
      const token = csrfOf((await alice.web.get(page(state))).body);
      const form = { _csrf: token, state, decision: 'approve' };
      expect((await alice.web.postRaw('/connect/agent', form, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await alice.web.postRaw('/connect/agent', form, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await alice.web.postRaw('/connect/agent', form, { origin: 'null' })).status).toBe(403);
      expect((await alice.web.postRaw('/connect/agent', form, { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-site' })).status).toBe(403);
      expectError(await api().post('connect/exchange', { state }), 425, 'not_approved');
      // The same form from this site goes through.
      expect((await alice.web.postRaw('/connect/agent', form, { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    });

    it("the first decision is final: Bob can neither take over nor undo Alice's approval", async () => {
      const state = await started();
      expect((await decide(alice, state, 'approve')).status).toBe(200);
      for (const decision of ['approve', 'deny']) {
        const res = await decide(bob, state, decision);
        expect(res.status).toBe(409);
        expect(res.body).toContain('This link was already used');
      }
      const key = ok(await api().post('connect/exchange', { state }));
      expect(ok(await client(t.app, key.token).get('me')).id).toBe(alice.userId);
    });

    it("a forged sign-in cannot switch Alice's browser into Bob's account before she approves", async () => {
      const victim = webClient(t.app);
      await victim.get('/login');
      // The attacker's page knows Bob's password but not the token of Alice's browser.
      const attackerToken = csrfOf((await webClient(t.app).get('/login')).body);
      const forged = await victim.postRaw(
        '/login',
        { _csrf: attackerToken, email: bob.email, password: 'correct horse battery' },
        { origin: 'https://evil.example' },
      );
      expect(forged.status).toBe(403);
      const forgedSameToken = await victim.postRaw('/login', { _csrf: attackerToken, email: bob.email, password: 'correct horse battery' });
      expect(forgedSameToken.status).toBe(403);
      expect(victim.jar.has('cin_session')).toBe(false);
      const state = await started();
      expect((await victim.get(page(state))).location).toMatch(/^\/login\?next=/);
    });
  });
});
