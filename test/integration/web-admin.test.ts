import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, expectError } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, newEmail, webClient, type WebClient } from '../helpers/web-client.js';

/** A multipart form as a browser sends it: text fields and one file. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; content: string }): { payload: string; contentType: string } {
  const boundary = '----capture-inbox-test-boundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(DIALECTS)('owner, admin page and sign-up (%s)', (dialect) => {
  describe('on a server with sign-up open', () => {
    let t: TestApp;
    let owner: WebClient;
    let ownerEmail: string;
    beforeAll(async () => {
      t = await createTestApp(dialect);
      owner = webClient(t.app);
      ownerEmail = newEmail();
      await owner.signUp(ownerEmail);
    });
    afterAll(async () => t?.close());

    it('makes the owner (the first sign-up) Pro while DEFAULT_PLAN is free; the next sign-up gets free', async () => {
      expect((await t.services.users.requireByEmail(ownerEmail)).plan).toBe('pro');
      const next = newEmail();
      await webClient(t.app).signUp(next);
      expect((await t.services.users.requireByEmail(next)).plan).toBe('free');
    });

    it('shows the first user the admin page with every user, and 404 to anyone else', async () => {
      const other = webClient(t.app);
      const otherEmail = newEmail();
      await other.signUp(otherEmail);
      const page = await owner.get('/admin');
      expect(page.status).toBe(200);
      expect(page.body).toContain(otherEmail);
      expect(page.body).toContain('(owner)');
      expect((await owner.get('/settings/keys')).body).toContain('href="/admin"');
      expect((await other.get('/admin')).status).toBe(404);
      expect((await other.get('/settings/keys')).body).not.toContain('href="/admin"');
      expect((await webClient(t.app).get('/admin')).location).toBe('/login?next=%2Fadmin');
    });

    it("sets a user's plan from the admin page; another user cannot", async () => {
      const other = webClient(t.app);
      const email = newEmail();
      await other.signUp(email);
      const { id } = await t.services.users.requireByEmail(email);
      const refused = await other.submit('/settings/keys', `/admin/users/${id}/plan`, { plan: 'pro' });
      expect(refused.status).toBe(404);
      expect((await t.services.users.requireByEmail(email)).plan).toBe('free');
      const done = await owner.submit('/admin', `/admin/users/${id}/plan`, { plan: 'pro' });
      expect(done.location).toBe('/admin?done=plan');
      expect((await t.services.users.requireByEmail(email)).plan).toBe('pro');
    });

    it('closes sign-up: the page says so, a sign-up is refused (403) and creates nothing; opening it again works', async () => {
      expect((await owner.submit('/admin', '/admin/signup', { open: 'false' })).location).toBe('/admin?done=signup');
      const stranger = webClient(t.app);
      const closed = await stranger.get('/signup');
      expect(closed.body).toContain('Sign-up is closed');
      const before = await fingerprint(t.services.db);
      const refused = await stranger.postRaw('/signup', {
        _csrf: csrfOf((await stranger.get('/login')).body),
        email: newEmail(),
        password: 'correct horse battery',
      });
      expect(refused.status).toBe(403);
      expect(await fingerprint(t.services.db)).toEqual(before);
      await owner.submit('/admin', '/admin/signup', { open: 'true' });
      await stranger.signUp(newEmail());
    });

    it('downloads the export and imports a file from the settings page', async () => {
      const json = await owner.get('/settings/export?format=json');
      expect(json.status).toBe(200);
      expect(json.headers['content-disposition']).toMatch(/attachment; filename="capture-inbox-.*\.json"/);
      expect(JSON.parse(json.body)).toMatchObject({ format: 'capture-inbox-export', version: 1 });
      const md = await owner.get('/settings/export?format=markdown');
      expect(md.body).toContain('# Inbox');

      const page = await owner.get('/settings/keys');
      const csv = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT\ntask,Water the plants @home,,1,1\n';
      const form = multipart({ _csrf: csrfOf(page.body) }, { name: 'todoist.csv', type: 'text/csv', content: csv });
      const cookie = [...owner.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await t.app.inject({ method: 'POST', url: '/settings/import', headers: { cookie, 'content-type': form.contentType }, payload: form.payload });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain('Imported 1 items, 0 new projects and 1 new tags.');
      const bad = multipart({ _csrf: csrfOf(page.body) }, { name: 'x.json', type: 'application/json', content: '{"format":"nope"}' });
      const refused = await t.app.inject({
        method: 'POST',
        url: '/settings/import',
        headers: { cookie, 'content-type': bad.contentType },
        payload: bad.payload,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('Nothing was imported');
      const noToken = multipart({}, { name: 'todoist.csv', type: 'text/csv', content: csv });
      const forged = await t.app.inject({
        method: 'POST',
        url: '/settings/import',
        headers: { cookie, 'content-type': noToken.contentType },
        payload: noToken.payload,
      });
      expect(forged.statusCode).toBe(403);
    });

    it('names the way out in a 402 on this self-hosted server', async () => {
      const a = await actor(t);
      const res = await a.c.post('capture', { text: 'call mom tomorrow', organize: true });
      expectError(res, 402, 'pro_required');
      expect(res.body.message).toContain('/admin');
      expect(res.body.message).toContain('user set-plan');
    });
  });

  describe('with ALLOW_SIGNUP=false and DEFAULT_PLAN=pro', () => {
    it('keeps sign-up closed whatever the admin page says', async () => {
      const t = await createTestApp(dialect, { signup: { allowed: false, defaultPlan: 'pro' } });
      try {
        const owner = await t.services.users.create({ email: newEmail(), password: 'correct horse battery' });
        const web = webClient(t.app);
        expect((await web.signIn(owner.email)).status).toBe(303);
        const page = await web.get('/admin');
        expect(page.body).toContain('ALLOW_SIGNUP=false');
        expect(page.body).not.toContain('action="/admin/signup"');
        await t.services.instance.setSignupOpen(true);
        expect((await webClient(t.app).get('/signup')).body).toContain('Sign-up is closed');
      } finally {
        await t.close();
      }
    });

    it('gives users created by sign-up the DEFAULT_PLAN', async () => {
      const t = await createTestApp(dialect, { signup: { allowed: true, defaultPlan: 'pro' } });
      try {
        const email = newEmail();
        await webClient(t.app).signUp(email);
        expect((await t.services.users.requireByEmail(email)).plan).toBe('pro');
      } finally {
        await t.close();
      }
    });
  });
});
