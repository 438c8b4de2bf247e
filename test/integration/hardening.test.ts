import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_MESSAGE } from '../../src/plugins/auth.js';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { expectError, ok } from '../helpers/items.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { UNLIMITED, client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { newState, signedInBrowser, webClient } from '../helpers/web-client.js';

/** One raw HTTP/1.1 exchange, so the request can carry what clients normally cannot (two Authorization headers). */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(head);
  });
}

describe.each(DIALECTS)('faults found from outside (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    user = await createUser(t, 'pro');
    await client(t.app, user.token).get('me');
  });
  afterAll(async () => t?.close());

  describe('lone UTF-16 surrogates in JSON', () => {
    const LONE = ['\\ud800', '\\udfff', 'a\\ud83d', '\\ude00b', '\\udc00\\ud800'];

    it('are refused with 400 in every string field and in keys, writing nothing', async () => {
      const api = client(t.app, user.token);
      const item = ok(await api.post('capture', { text: 'surrogate target' }), 201);
      const before = await fingerprint(t.services.db);
      for (const lone of LONE) {
        const bodies: Array<[string, string, string]> = [
          ['POST', 'capture', `{"text":"x${lone}y"}`],
          ['POST', 'capture', `{"text":"ok","client_id":"${lone}"}`],
          ['PATCH', `items/${item.id}`, `{"title":"${lone}"}`],
          ['PATCH', `items/${item.id}`, `{"tags":["work","${lone}"]}`],
          ['PATCH', `items/${item.id}`, `{"content_md":"text ${lone}"}`],
          ['POST', 'projects', `{"name":"${lone}"}`],
          ['PATCH', 'me', `{"timezone":"${lone}"}`],
          ['POST', 'webhooks', `{"url":"https://hooks.example.com/x","events":["item.created"],"description":"${lone}"}`],
          ['POST', 'capture', `{"text":"ok","x${lone}":1}`],
          ['POST', 'connect/start', `{"state":"${newState()}","label":"${lone}"}`],
        ];
        for (const [method, url, payload] of bodies) {
          const res = await api.send(method, url, payload);
          expectError(res, 400, 'bad_request');
          expect((res.body as { message: string }).message).toMatch(/well-formed Unicode/);
        }
      }
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('a surrogate pair (an emoji written as \\u escapes) is fine', async () => {
      const created = ok(await client(t.app, user.token).post('capture', '{"text":"smile \\ud83d\\ude00"}'), 201);
      expect(created.title).toBe('smile 😀');
    });
  });

  describe('web redirects to non-ASCII targets', () => {
    it('GET /login?next= while signed in redirects to the percent-encoded path', async () => {
      const { web } = await signedInBrowser(t);
      const res = await web.get(`/login?next=${encodeURIComponent('/日本?q=ü ö')}`);
      expect(res.status).toBe(303);
      expect(res.location).toBe('/%E6%97%A5%E6%9C%AC?q=%C3%BC%20%C3%B6');
    });

    it('POST /login with such a next signs in and redirects', async () => {
      const { email } = await signedInBrowser(t);
      const res = await webClient(t.app).submit('/login', '/login', { email, password: 'correct horse battery', next: '/日本' });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/%E6%97%A5%E6%9C%AC');
      expect(String(res.headers['set-cookie'])).toContain('cin_session=');
    });

    it('/inbox/capture with such a return stores the item once and redirects', async () => {
      const { web, userId } = await signedInBrowser(t);
      const res = await web.submit('/', '/inbox/capture', { text: 'from the form', return: '/?q=日本' });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/?q=%E6%97%A5%E6%9C%AC');
      expect((await t.services.search.search(userId, {}, { notArchived: true })).items.map((i) => i.title)).toEqual(['from the form']);
    });
  });

  describe('headers', () => {
    it('JSON answers carry X-Content-Type-Options: nosniff, errors included', async () => {
      for (const res of [await client(t.app, user.token).get('me'), await client(t.app).get('me'), await client(t.app, user.token).get('nothing-here')]) {
        expect(String(res.headers['content-type'])).toContain('application/json');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('/docs carries a Content-Security-Policy', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/docs/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'.*frame-ancestors 'none'/);
    });

    it('the answer carrying a new webhook secret is Cache-Control: no-store', async () => {
      const res = await client(t.app, user.token).post('webhooks', { url: 'https://hooks.example.com/nostore', events: ['item.created'] });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('two Authorization headers', () => {
    it('are refused with the one 401 message, whichever comes first', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const request = (headers: string[]) =>
        rawRequest(port, `GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`);
      const valid = `Authorization: Bearer ${user.token}`;
      expect(await request([valid])).toMatch(/^HTTP\/1\.1 200 /);
      for (const pair of [
        [valid, 'Authorization: junk'],
        ['authorization: Bearer junk', valid],
        [valid, valid],
      ]) {
        const answer = await request(pair);
        expect(answer).toMatch(/^HTTP\/1\.1 401 /);
        expect(answer).toContain(JSON.stringify(UNAUTHORIZED_MESSAGE));
      }
    });
  });
});

describe.each(DIALECTS)('limits that were missed (%s)', (dialect) => {
  it('captures and item actions from the web form count against the plan limits, once each', async () => {
    const t = await createTestApp(dialect, { limits: { ...UNLIMITED, free: { perMinute: 4, perDay: 1000 } } });
    try {
      const { web, userId } = await signedInBrowser(t);
      // The first sign-up owns the server and is Pro; these limits are the Free plan's.
      await t.services.users.setPlanById(userId, 'free');
      const key = await t.services.keys.mint(userId, 'api');
      for (let i = 0; i < 3; i += 1) expect((await web.submit('/', '/inbox/capture', { text: `web ${i}` })).status).toBe(303);
      const [first] = (await t.services.search.search(userId, {}, { notArchived: true })).items;
      expect((await web.submit('/', `/inbox/items/${first!.id}/toggle`, {})).status).toBe(303);
      const before = await fingerprint(t.services.db);
      const refused = await web.submit('/', '/inbox/capture', { text: 'one too many' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await web.submit('/', `/inbox/items/${first!.id}/archive`, {})).status).toBe(429);
      expect(await fingerprint(t.services.db)).toEqual(before);
      // The API shares the counter: the minute is spent.
      expectError(await client(t.app, key.token).get('me'), 429, 'rate_limited');
    } finally {
      await t.close();
    }
  });

  it('an exchange polled faster than every 2 s gets 429 slow_down; at the pace it gets 425, and the key once approved', async () => {
    const t = await createTestApp(dialect);
    try {
      const api = client(t.app);
      const { web } = await signedInBrowser(t);
      const state = newState();
      ok(await api.post('connect/start', { state, label: 'Poller' }));
      expectError(await api.post('connect/exchange', { state }), 425, 'not_approved');
      const fast = await api.post('connect/exchange', { state });
      expectError(fast, 429, 'slow_down');
      expect(fast.headers['retry-after']).toBe('2');
      t.clock.advance(2000);
      expectError(await api.post('connect/exchange', { state }), 425, 'not_approved');
      await web.submit(`/connect/agent?state=${state}`, '/connect/agent', { state, decision: 'approve' });
      // Approved: the key is handed out at once, however soon after the last poll.
      expect((await api.post('connect/exchange', { state })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('the approval page spends the pairing budget per address', async () => {
    const t = await createTestApp(dialect, { limits: { ...UNLIMITED, pairingPerMinute: 3 } });
    try {
      const address = '198.51.100.50';
      const web = webClient(t.app, { remoteAddress: address });
      for (let i = 0; i < 3; i += 1) expect((await web.get(`/connect/agent?state=${newState()}`)).status).toBe(404);
      const guessed = await web.get(`/connect/agent?state=${newState()}`);
      expect(guessed.status).toBe(429);
      expect(Number(guessed.headers['retry-after'])).toBeGreaterThan(0);
      // The API's pairing routes share it; another address still has its own.
      const start = (remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/connect/start',
          remoteAddress,
          headers: { 'content-type': 'application/json' },
          payload: { state: newState(), label: 'x' },
        });
      expect((await start(address)).statusCode).toBe(429);
      expect((await start('198.51.100.51')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY as a hop count takes the address the proxy saw, not one the client wrote', async () => {
    const t = await createTestApp(dialect, { limits: { ...UNLIMITED, pairingPerMinute: 1 }, trustProxy: 1 });
    try {
      const start = (forged: string, client = '203.0.113.5') =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/connect/start',
          remoteAddress: '10.0.0.2',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `${forged}, ${client}` },
          payload: { state: newState(), label: 'x' },
        });
      expect((await start('198.51.100.1')).statusCode).toBe(200);
      // A forged leftmost entry does not make a new client...
      expect((await start('198.51.100.2')).statusCode).toBe(429);
      // ...while another client behind the same proxy has its own budget.
      expect((await start('198.51.100.3', '203.0.113.6')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)('request logs (%s)', (dialect) => {
  it('never show a pairing state or a next link in clear', async () => {
    const { logger, lines } = capturingLogger();
    const t = await createTestApp(dialect, { logger });
    try {
      const state = newState();
      ok(await client(t.app).post('connect/start', { state, label: 'Logged' }));
      const res = await t.app.inject({ method: 'GET', url: `/connect/agent?state=${state}&x=1`, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(303);
      await t.app.inject({ method: 'GET', url: String(res.headers.location) });
      const text = JSON.stringify(lines);
      expect(lines.some((l) => l.msg === 'request' && typeof l.url === 'string')).toBe(true);
      expect(text).not.toContain(state);
      expect(text).toContain('/connect/agent?state=[redacted]&x=1');
      expect(text).toContain('/login?next=[redacted]');
    } finally {
      await t.close();
    }
  });
});
