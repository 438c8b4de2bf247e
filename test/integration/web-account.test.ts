import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser, webClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery';

describe.each(DIALECTS)('web account page (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // The first account is the server's owner; the tests below are ordinary users.
    await signedInBrowser(t);
  });
  afterAll(async () => t?.close());

  it('POST /account/password needs the current password, then signs out every other browser but this one', async () => {
    const { web, email } = await signedInBrowser(t);
    const other = webClient(t.app);
    expect((await other.signIn(email)).status).toBe(303);
    const wrong = await web.submit('/account', '/account/password', { current_password: 'not it at all', new_password: 'a brand new secret' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('id="current_password-error">The current password is wrong.');
    const short = await web.submit('/account', '/account/password', { current_password: PASSWORD, new_password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toContain('id="new_password-error">The new password must be 8 to 256 characters.');
    expect((await other.get('/')).status).toBe(200);

    const res = await web.submit('/account', '/account/password', { current_password: PASSWORD, new_password: 'a brand new secret' });
    expect(res.location).toBe('/account?done=password');
    expect((await web.get('/')).status).toBe(200);
    expect((await other.get('/')).location).toBe('/login');
    expect((await webClient(t.app).signIn(email)).status).toBe(401);
    expect((await webClient(t.app).signIn(email, 'a brand new secret')).status).toBe(303);
  });

  it('lists the signed-in browsers and signs one out', async () => {
    const { web, email } = await signedInBrowser(t);
    const other = webClient(t.app);
    await other.signIn(email);
    const page = await web.get('/account');
    expect(page.body).toContain('<strong>This browser</strong>');
    const ids = [...page.body.matchAll(/action="\/account\/sessions\/([0-9a-f]{64})\/end"/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(1);
    expect((await web.submit('/account', `/account/sessions/${ids[0]}/end`)).location).toBe('/account?done=ended');
    expect((await other.get('/')).location).toBe('/login');
    expect((await web.get('/')).status).toBe(200);
    // Another user's session id is not found.
    const stranger = await signedInBrowser(t);
    expect((await stranger.web.submit('/account', `/account/sessions/${ids[0]}/end`)).status).toBe(404);
  });

  it('POST /account/delete needs the typed email, then removes everything of the user; keys stop at once', async () => {
    const { web, email, userId } = await signedInBrowser(t);
    const keeper = await signedInBrowser(t);
    await keeper.web.submit('/', '/inbox/capture', { text: 'stays', return: '/' });
    const { token } = await t.services.keys.mint(userId, 'script');
    const api = client(t.app, token);
    const parent = (await api.post('capture', { text: 'Parent #home' })).body;
    const child = (await api.post('capture', { text: 'Child' })).body;
    await api.patch(`items/${child.id}`, { parent_id: parent.id, tags: ['home'] });
    const work = (await api.post('projects', { name: 'Work' })).body;
    // A move teaches the organizer's model: the user's data too (issue 37).
    await api.patch(`items/${parent.id}`, { project_id: work.id });
    expect(await t.services.db.selectFrom('organizer_models').select('user_id').where('user_id', '=', userId).execute()).toHaveLength(1);

    const before = await fingerprint(t.services.db);
    const wrong = await web.submit('/account', '/account/delete', { confirmation: 'someone@else.test' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('id="confirmation-error">Type your email address exactly to confirm.');
    expect(wrong.body).toContain('value="someone@else.test"');
    expect(await fingerprint(t.services.db)).toEqual(before);

    const res = await web.submit('/account', '/account/delete', { confirmation: email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Your account was deleted');
    expect((await api.get('me')).status).toBe(401);
    expect((await web.get('/')).location).toBe('/login');
    const db = t.services.db;
    expect(await db.selectFrom('organizer_models').select('user_id').where('user_id', '=', userId).execute()).toEqual([]);
    for (const table of ['items', 'projects', 'tags', 'item_tags', 'api_keys', 'web_sessions', 'outbox_events'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await db.selectFrom('users').select('id').where('id', '=', userId).execute()).toEqual([]);
    expect((await t.services.items.list(keeper.userId, { limit: 5 })).items.map((i) => i.title)).toEqual(['stays']);
    expect((await webClient(t.app).signIn(email)).status).toBe(401);
    // The email is free again.
    expect((await webClient(t.app).signUp(email)).status).toBe(303);
  });

  it('POST /account/import imports an export and shows the result; an unreadable file is refused next to the field', async () => {
    const from = await signedInBrowser(t);
    await from.web.submit('/', '/inbox/capture', { text: 'Carried over', return: '/' });
    const exported = await from.web.get('/settings/export?format=json');
    const { web, userId } = await signedInBrowser(t);
    const upload = async (content: string) => {
      const page = await web.get('/account');
      const form = new FormData();
      form.append('_csrf', csrfOf(page.body));
      form.append('file', new Blob([content], { type: 'application/json' }), 'export.json');
      const request = new Request('http://x/', { method: 'POST', body: form });
      const res = await t.app.inject({
        method: 'POST',
        url: '/account/import',
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { cookie: [...web.jar].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': request.headers.get('content-type')! },
      });
      return { status: res.statusCode, body: res.body };
    };
    const ok = await upload(exported.body);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('Imported 1 items');
    expect((await t.services.items.list(userId, { limit: 5 })).items.map((i) => i.title)).toEqual(['Carried over']);
    const bad = await upload('{ not json');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('id="import-error">Nothing was imported: the file starts like JSON but does not parse.');
  });

  it("refuses to delete the server owner's account", async () => {
    const owner = (await t.services.users.list())[0]!;
    const web = webClient(t.app);
    // The owner's browser from beforeAll is gone; sign in again with the same password.
    expect((await web.signIn(owner.email)).status).toBe(303);
    const res = await web.submit('/account', '/account/delete', { confirmation: owner.email });
    expect(res.status).toBe(403);
    expect(res.body).toContain('owner cannot delete their account here');
    expect((await t.services.users.list())[0]!.id).toBe(owner.id);
  });

  it('GET /account sends a signed-out browser to sign in first', async () => {
    expect((await webClient(t.app).get('/account')).location).toBe('/login?next=%2Faccount');
  });
});
