import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, webClient, type WebClient } from '../helpers/web-client.js';

describe.each(DIALECTS)('web developer settings (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;
  let email: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ web, userId, email } = await signedInBrowser(t));
  });
  afterAll(async () => t?.close());

  const mint = async (label: string) => {
    const res = await web.submit('/settings/keys', '/settings/keys', { label });
    const token = /id="new-token"[^>]*>([^<]+)<\/textarea>/.exec(res.body)?.[1];
    return { res, token };
  };

  it('GET /settings/keys sends a signed-out browser to sign in and back', async () => {
    expect((await webClient(t.app).get('/settings/keys')).location).toBe('/login?next=%2Fsettings%2Fkeys');
  });

  it('shows the account: email, plan and time zone', async () => {
    const page = await web.get('/settings/keys');
    expect(page.status).toBe(200);
    expect(page.body).toContain(email);
    // The only account, so the server's owner: Pro by default (web-admin.test.ts).
    expect(page.body).toMatch(/<dt>Plan<\/dt><dd>Pro<\/dd>/);
    // The time zone is set under Account.
    expect(page.body).toContain('(<a href="/account#timezone">change it under Account</a>)');
    expect((await web.get('/account')).body).toContain('<option selected>UTC</option>');
  });

  it('mints a key shown once, which then works against /api/v1/me and is listed by label and prefix', async () => {
    const { res, token } = await mint('  laptop script  ');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(token).toMatch(/^cin_[a-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    expect(res.body).toContain('data-copy="new-token"');
    const me = await client(t.app, token).get('me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: userId, email });

    const page = await web.get('/settings/keys');
    const prefix = token!.split('_')[1]!;
    expect(page.body).not.toContain(token);
    expect(page.body).toContain(`<code>cin_${prefix}_…</code>`);
    expect(page.body).toMatch(/<td data-label="Label">laptop script<\/td>/);
    // Used once just now: "Last used" shows a time instead of "Never".
    expect(page.body).toMatch(
      new RegExp(`cin_${prefix}_…</code></td>\\s*<td data-label="Created"><time[^>]*>[^<]+</time></td>\\s*<td data-label="Last used"><time`),
    );
  });

  it('refuses a key without a label, or with a label over 100 characters', async () => {
    for (const label of ['', '   ', 'x'.repeat(101)]) {
      const { res, token } = await mint(label);
      expect(res.status).toBe(400);
      expect(token).toBeUndefined();
      expect(res.body).toContain('Give the key a label of 1 to 100 characters.');
    }
  });

  it('revokes a key of the user: it answers 401 at once and the list says Revoked', async () => {
    const { token } = await mint('to revoke');
    const keyId = (await t.services.keys.list(userId)).find((k) => k.label === 'to revoke')!.id;
    const res = await web.submit('/settings/keys', `/settings/keys/${keyId}/revoke`);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings/keys?done=revoked');
    expect((await client(t.app, token).get('me')).status).toBe(401);
    const page = await web.get(res.location!);
    expect(page.body).toContain('The key was revoked.');
    expect(page.body).toMatch(/<tr class="revoked">\s*<td data-label="Label">to revoke<\/td>/);
  });

  it("answers 404 for another user's key and leaves it working", async () => {
    const other = await t.services.users.create({ email: `other-${Date.now()}@example.test` });
    const key = await t.services.keys.mint(other.id, 'theirs');
    for (const id of [key.key_id, 'not-a-uuid']) {
      const res = await web.submit('/settings/keys', `/settings/keys/${id}/revoke`);
      expect(res.status).toBe(404);
      expect(res.body).toContain('Key not found.');
    }
    expect((await client(t.app, key.token).get('me')).status).toBe(200);
  });

  it('sets the time zone, which the API reports and dates are shown in', async () => {
    const res = await web.submit('/account', '/account/timezone', { timezone: 'Asia/Tokyo' });
    expect(res.location).toBe('/account?done=timezone');
    expect((await t.services.users.me(userId)).timezone).toBe('Asia/Tokyo');
    const page = await web.get('/account');
    expect(page.body).toContain('<option selected>Asia/Tokyo</option>');
    const bad = await web.submit('/account', '/account/timezone', { timezone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('is not an IANA time zone name');
    expect((await t.services.users.me(userId)).timezone).toBe('Asia/Tokyo');
  });

  it("lists the user's webhooks read-only, and never another user's", async () => {
    await t.services.webhooks.create(userId, { url: 'https://hooks.example.com/mine', events: ['item.created'] });
    const other = await t.services.users.create({ email: `hooks-${Date.now()}@example.test`, plan: 'pro' });
    await t.services.webhooks.create(other.id, { url: 'https://hooks.example.com/theirs', events: ['item.created'] });
    const page = (await web.get('/settings/keys')).body;
    expect(page).toContain('webhooks-heading');
    expect(page).toContain('https://hooks.example.com/mine');
    expect(page).not.toContain('https://hooks.example.com/theirs');
  });
});
