import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, newEmail, signedInBrowser, webClient, type PageResponse } from '../helpers/web-client.js';

const setCookies = (res: PageResponse): string[] => {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
};

const DAY = 24 * 60 * 60_000;
describe.each(DIALECTS)('web accounts (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  describe('GET /signup and /login', () => {
    it('render a form with a CSRF token and set an HttpOnly, SameSite=Lax cookie for it', async () => {
      for (const path of ['/signup', '/login']) {
        const res = await webClient(t.app).get(path);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(csrfOf(res.body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const [cookie] = setCookies(res);
        expect(cookie).toMatch(/^cin_anon=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
      }
    });

    it('send a signed-in user on to the page asked for', async () => {
      const { web } = await signedInBrowser(t);
      expect((await web.get('/login')).location).toBe('/');
      expect((await web.get('/login?next=%2Fsettings%2Fkeys')).location).toBe('/settings/keys');
    });
  });

  describe('POST /signup', () => {
    it('creates the user with an Argon2id hash, signs them in with a session cookie and opens the inbox', async () => {
      const web = webClient(t.app);
      const email = newEmail();
      const res = await web.submit('/signup', '/signup', { email, password: 'correct horse battery', timezone: 'Europe/Berlin' });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/');
      const session = setCookies(res).find((c) => c.startsWith('cin_session='));
      expect(session).toMatch(/^cin_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
      const user = await t.services.users.requireByEmail(email);
      expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(user.password_hash).not.toContain('correct horse');
      expect(user.timezone).toBe('Europe/Berlin');
      // The session table holds the token's hash, never the token.
      const rows = await t.services.db.selectFrom('web_sessions').selectAll().where('user_id', '=', user.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).not.toBe(web.jar.get('cin_session'));
      const inbox = await web.get('/');
      expect(inbox.status).toBe(200);
      expect(inbox.body).toContain('Sign out');
      expect((await t.services.projects.list(user.id)).map((p) => p.name)).toEqual(['Inbox']);
    });

    it('answers the form again with the reason for a taken email, a short password or a bad address', async () => {
      const { email } = await signedInBrowser(t);
      const cases: [Record<string, string>, number, string][] = [
        // Neutral: a stranger cannot tell from the wording that the email has an account.
        [{ email: email.toUpperCase(), password: 'long enough pass' }, 400, 'No account could be created with these details.'],
        [{ email: newEmail(), password: 'short' }, 400, 'Password must be 8 to 256 characters.'],
        [{ email: 'not-an-email', password: 'long enough pass' }, 400, 'Email is not a valid address.'],
        [{ email: '', password: '' }, 400, ''],
      ];
      for (const [form, status, message] of cases) {
        const res = await webClient(t.app).submit('/signup', '/signup', form);
        expect(res.status, res.body.slice(0, 200)).toBe(status);
        expect(res.body).toContain('role="alert"');
        expect(res.body).toContain(message);
        expect(res.body).not.toMatch(/already exists|is taken|in use/i);
        expect(setCookies(res).some((c) => c.startsWith('cin_session='))).toBe(false);
      }
    });

    it('keeps UTC when the browser sends a zone Node does not know', async () => {
      const email = newEmail();
      await webClient(t.app).submit('/signup', '/signup', { email, password: 'long enough pass', timezone: 'Mars/Olympus' });
      expect((await t.services.users.requireByEmail(email)).timezone).toBe('UTC');
    });
  });

  describe('POST /login and /logout', () => {
    it('signs in with the right password only, with one message for a wrong password and an unknown email', async () => {
      const { email } = await signedInBrowser(t);
      const wrong = await webClient(t.app).signIn(email, 'wrong password!');
      const unknown = await webClient(t.app).signIn(newEmail(), 'wrong password!');
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toContain('The email or the password is wrong.');
        expect(setCookies(res).some((c) => c.startsWith('cin_session='))).toBe(false);
      }
      const web = webClient(t.app);
      const right = await web.signIn(email.toUpperCase());
      expect(right.status).toBe(303);
      expect((await web.get('/')).status).toBe(200);
    });

    it('refuses users made without a password (admin CLI) as it refuses a wrong password', async () => {
      const email = newEmail();
      await t.services.users.create({ email });
      expect((await webClient(t.app).signIn(email, '')).status).toBe(401);
      expect((await webClient(t.app).signIn(email, 'anything at all')).status).toBe(401);
    });

    it('returns to the page given in next, and never to another site', async () => {
      const { email } = await signedInBrowser(t);
      const cases: [string, string][] = [
        ['/settings/keys', '/settings/keys'],
        ['/connect/agent?state=abc', '/connect/agent?state=abc'],
        ['//evil.example/', '/'],
        ['/\\evil.example/', '/'],
        ['https://evil.example/', '/'],
        ['javascript:alert(1)', '/'],
      ];
      for (const [next, expected] of cases) {
        const res = await webClient(t.app).submit('/login', '/login', { email, password: 'correct horse battery', next });
        expect(res.location, next).toBe(expected);
      }
    });

    it('signs out: the session row is deleted, the cookie cleared, and the old cookie no longer works', async () => {
      const { web, userId } = await signedInBrowser(t);
      const token = web.jar.get('cin_session')!;
      const res = await web.submit('/', '/logout');
      expect(res.status).toBe(303);
      expect(res.location).toBe('/login');
      expect(web.jar.has('cin_session')).toBe(false);
      expect(await t.services.db.selectFrom('web_sessions').select('id').where('user_id', '=', userId).execute()).toEqual([]);
      const replay = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: `cin_session=${token}` } });
      expect(replay.statusCode).toBe(303);
      expect(replay.headers.location).toBe('/login');
    });

    it('ends a session after 30 days, however often it is used', async () => {
      const { web } = await signedInBrowser(t);
      for (let day = 6; day < 30; day += 6) {
        t.clock.advance(6 * DAY);
        expect((await web.get('/')).status).toBe(200);
      }
      t.clock.advance(6 * DAY - 1);
      expect((await web.get('/')).status).toBe(200);
      t.clock.advance(1);
      expect((await web.get('/')).location).toBe('/login');
    });

    it('ends a session left idle for 7 days; each use restarts the idle time', async () => {
      const { web } = await signedInBrowser(t);
      t.clock.advance(7 * DAY - 1);
      expect((await web.get('/')).status).toBe(200);
      t.clock.advance(7 * DAY - 1);
      expect((await web.get('/')).status).toBe(200);
      t.clock.advance(7 * DAY);
      expect((await web.get('/')).location).toBe('/login');
      // The cookie is cleared and signing in again works.
      expect((await web.get('/')).location).toBe('/login');
    });
  });

  describe('sign-in attempt limits', () => {
    it('refuses the 11th attempt a minute for one account from one address, even with the right password, then lets it in', async () => {
      const { email } = await signedInBrowser(t);
      t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000));
      const web = webClient(t.app, { remoteAddress: '198.51.100.1' });
      for (let i = 0; i < 10; i += 1) expect((await web.signIn(email, `wrong ${i} password`)).status).toBe(401);
      const refused = await web.signIn(email);
      expect(refused.status).toBe(429);
      expect(refused.body).toContain('Too many attempts');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Someone failing on purpose elsewhere cannot lock the owner out: another address signs in.
      expect((await webClient(t.app, { remoteAddress: '198.51.100.2' }).signIn(email)).status).toBe(303);
      t.clock.advance(60_000);
      expect((await web.signIn(email)).status).toBe(303);
    });

    it('throttles an unknown account exactly like a known one, with the same message', async () => {
      t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000));
      const { email } = await signedInBrowser(t);
      const answers: string[] = [];
      for (const [address, who] of [
        ['198.51.100.7', email],
        ['198.51.100.8', newEmail()],
      ] as const) {
        const web = webClient(t.app, { remoteAddress: address });
        const wrong = await web.signIn(who, 'not the password');
        expect(wrong.status).toBe(401);
        for (let i = 0; i < 9; i += 1) await web.signIn(who, 'not the password');
        const refused = await web.signIn(who, 'not the password');
        expect(refused.status).toBe(429);
        answers.push(`${/class="alert error"[^>]*>([^<]*)</.exec(wrong.body)?.[1]} | ${/class="alert error"[^>]*>([^<]*)</.exec(refused.body)?.[1]}`);
      }
      expect(answers[0]).toBe(answers[1]);
    });

    it('refuses the 31st attempt a minute from one address, whatever the emails', async () => {
      t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000));
      const web = webClient(t.app, { remoteAddress: '203.0.113.9' });
      for (let i = 0; i < 30; i += 1) expect((await web.signIn(newEmail(), 'whatever pass')).status).toBe(401);
      expect((await web.signIn(newEmail(), 'whatever pass')).status).toBe(429);
      // Sign-ups from that address share the budget.
      expect((await web.submit('/signup', '/signup', { email: newEmail(), password: 'long enough pass' })).status).toBe(429);
      expect((await webClient(t.app, { remoteAddress: '203.0.113.10' }).signIn(newEmail(), 'whatever pass')).status).toBe(401);
    });
  });
});

describe('web cookies behind an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(DIALECTS[0] ?? 'sqlite', { publicUrl: 'https://inbox.example.test' });
  });
  afterAll(async () => t?.close());

  it('are Secure and __Host- prefixed', async () => {
    const web = webClient(t.app);
    const page = await web.get('/signup');
    expect(setCookies(page)[0]).toMatch(/^__Host-cin_anon=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const res = await web.postRaw('/signup', { _csrf: csrfOf(page.body), email: newEmail(), password: 'long enough pass' });
    expect(res.status).toBe(303);
    expect(setCookies(res).find((c) => c.startsWith('__Host-cin_session='))).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });
});
