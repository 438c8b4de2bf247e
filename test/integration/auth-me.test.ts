import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(DIALECTS)('authentication and the current user (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('bearer authentication', () => {
    it('answers 401 { error: unauthorized, message } without an Authorization header', async () => {
      const anonymous = client(t.app);
      for (const url of ['me', 'items', 'projects', 'tags']) {
        const res = await anonymous.get(url);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ error: 'unauthorized' });
        expect(typeof res.body.message).toBe('string');
      }
      const post = await anonymous.post('capture', { text: 'no key' });
      expect(post.status).toBe(401);
      expect(post.body.error).toBe('unauthorized');
    });

    it('answers 401 for malformed or wrong tokens', async () => {
      const user = await createUser(t);
      const [, prefix, secret] = user.token.split('_');
      const wrongSecret = secret!.slice(0, -1) + (secret!.endsWith('A') ? 'B' : 'A');
      const headers = [
        'Bearer x',
        'Bearer',
        `Basic ${Buffer.from(`${user.email}:${user.token}`).toString('base64')}`,
        `Basic ${user.token}`,
        user.token,
        `Bearer cin_${prefix}_${wrongSecret}`,
        `Bearer cin_zzzzzzzz_${secret}`,
        `Bearer xyz_${prefix}_${secret}`,
        `Bearer ${user.token}x!`,
        `Bearer ${user.token} extra`,
      ];
      for (const authorization of headers) {
        const res = await client(t.app).get('me', { authorization });
        expect(res.status, authorization).toBe(401);
        expect(res.body.error).toBe('unauthorized');
      }
      expect((await client(t.app, user.token).get('me')).status).toBe(200);
    });

    it('answers 401 at once for a revoked key, while the user’s other keys keep working', async () => {
      const user = await createUser(t);
      const other = await t.services.keys.mint(user.id, 'second');
      const api = client(t.app, user.token);
      expect((await api.get('me')).status).toBe(200);
      await t.services.keys.revoke(user.keyId);
      const res = await api.get('me');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
      expect((await client(t.app, other.token).get('me')).status).toBe(200);
    });

    it("sets the key's last_used_at when it is used", async () => {
      const user = await createUser(t);
      const keyOf = async () => (await t.services.keys.list(user.id)).find((k) => k.id === user.keyId);
      expect((await keyOf())?.last_used_at).toBeNull();
      t.clock.advance(5 * 60_000);
      const usedAt = t.clock.now().toISOString();
      expect((await client(t.app, user.token).get('me')).status).toBe(200);
      expect((await keyOf())?.last_used_at).toBe(usedAt);
    });
  });

  describe('GET /api/v1/me', () => {
    it('answers { id, email, is_pro, plan, timezone: UTC, created_at, key } for a free user', async () => {
      const user = await createUser(t);
      const res = await client(t.app, user.token).get('me');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: user.id,
        email: user.email,
        is_pro: false,
        plan: 'free',
        timezone: 'UTC',
        reminder_default: null,
        created_at: expect.stringMatching(TIMESTAMP),
        key: { id: user.keyId, scopes: ['read', 'capture', 'write', 'webhooks'] },
        storage: { used: 0, limit: 100 * 1024 * 1024 },
      });
    });

    it('answers is_pro true and plan pro for a Pro user', async () => {
      const user = await createUser(t, 'pro');
      const res = await client(t.app, user.token).get('me');
      expect(res.body).toMatchObject({ id: user.id, is_pro: true, plan: 'pro' });
    });
  });

  describe('PATCH /api/v1/me', () => {
    it('sets the timezone', async () => {
      const user = await createUser(t);
      const api = client(t.app, user.token);
      const res = await api.patch('me', { timezone: 'Europe/Berlin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, email: user.email, timezone: 'Europe/Berlin' });
      expect((await api.get('me')).body.timezone).toBe('Europe/Berlin');
    });

    it('canonicalises the zone name', async () => {
      const api = client(t.app, (await createUser(t)).token);
      const res = await api.patch('me', { timezone: 'europe/berlin' });
      expect(res.status).toBe(200);
      expect(res.body.timezone).toBe('Europe/Berlin');
    });

    it('answers 400 for an unknown zone and keeps the old one', async () => {
      const api = client(t.app, (await createUser(t)).token);
      for (const timezone of ['Mars/Base', '', 42]) {
        const res = await api.patch('me', { timezone });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('bad_request');
      }
      expect((await api.get('me')).body.timezone).toBe('UTC');
    });
  });

  describe('public endpoints', () => {
    it('GET /api/v1/openapi.json needs no key', async () => {
      const res = await client(t.app).get('openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\.1/);
    });

    it('GET /healthz and GET /readyz answer 200', async () => {
      for (const url of ['/healthz', '/readyz']) {
        const res = await client(t.app).get(url);
        expect(res.status).toBe(200);
      }
    });
  });

  describe('X-Request-Id', () => {
    it('is on every response: success, 401 and 404', async () => {
      const user = await createUser(t);
      const responses = [
        await client(t.app, user.token).get('me'),
        await client(t.app).get('me'),
        await client(t.app, user.token).get('nope'),
        await client(t.app).get('/healthz'),
      ];
      for (const res of responses) expect(String(res.headers['x-request-id'] ?? '')).not.toBe('');
      const ids = responses.map((res) => res.headers['x-request-id']);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('echoes a sane incoming X-Request-Id and replaces an unsafe one', async () => {
      const user = await createUser(t);
      const api = client(t.app, user.token);
      expect((await api.get('me', { 'x-request-id': 'trace-123.abc:7' })).headers['x-request-id']).toBe('trace-123.abc:7');
      expect((await client(t.app).get('me', { 'x-request-id': 'anon-req-1' })).headers['x-request-id']).toBe('anon-req-1');
      for (const unsafe of ['has spaces in it', 'x'.repeat(300), 'id<script>']) {
        const id = (await api.get('me', { 'x-request-id': unsafe })).headers['x-request-id'];
        expect(id).not.toBe(unsafe);
        expect(String(id ?? '')).not.toBe('');
      }
    });
  });

  describe('unknown routes', () => {
    it('answer 404 { error: not_found }', async () => {
      const user = await createUser(t);
      for (const res of [
        await client(t.app, user.token).get('no-such-route'),
        await client(t.app, user.token).post('items/x/y/z', {}),
        await client(t.app).get('/definitely/not/here'),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: 'not_found' });
        expect(typeof res.body.message).toBe('string');
      }
    });
  });
});
