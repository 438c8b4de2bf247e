import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_MESSAGE } from '../../src/plugins/auth.js';
import { installScopes } from '../../src/plugins/scopes.js';
import { SCOPES, type Scope } from '../../src/modules/keys/scopes.js';
import { InsufficientScopeErrorSchema } from '../../src/schemas/common.js';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { UNKNOWN_ID, expectError, ok } from '../helpers/items.js';
import { loadOpenApiValidator, type FoundOperation, type OpenApiValidator } from '../helpers/openapi-validator.js';
import { client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/*
 * Every operation of the OpenAPI document under a key of each single scope, so a new route is
 * covered the day it is added. The scope each operation should need comes from the contract's
 * words (below), independently of the route declarations, and must agree with the document.
 */

/**
 * Contract, "Scopes": read every GET; capture POST /capture and voice (and POST /parse, "Quick add";
 * POST /capture/batch and /voice/capture, "Brain dump"); webhooks the webhook endpoints; write the rest.
 */
function contractScope(method: string, path: string): Scope | 'none' {
  if (method === 'get' && path === '/api/v1/me') return 'none';
  // Not in the contract's words: a key may always end itself, whatever it holds (decision 0054).
  if (method === 'delete' && path === '/api/v1/me/key') return 'none';
  if (path.startsWith('/api/v1/webhooks')) return 'webhooks';
  if (method === 'get') return 'read';
  const capturing = ['/api/v1/capture', '/api/v1/capture/batch', '/api/v1/voice/transcribe', '/api/v1/voice/capture', '/api/v1/parse'];
  if (method === 'post' && capturing.includes(path)) return 'capture';
  // "Attachments": write, or capture for an item the same key captured in the last 10 minutes; so
  // capture at the door, and the route itself refuses a capture key other items (attachments.test.ts).
  if (method === 'post' && path === '/api/v1/items/{id}/attachments') return 'capture';
  return 'write';
}

/** write covers capture (contract: "capture included"). */
const admits = (held: Scope, needed: Scope | 'none'): boolean => needed === 'none' || held === needed || (needed === 'capture' && held === 'write');

const PUBLIC = new Set(['/api/v1/connect/start', '/api/v1/connect/exchange', '/api/v1/openapi.json', '/api/v1/push/key']);

describe.each(DIALECTS)('key scopes (%s)', (dialect) => {
  let t: TestApp;
  let v: OpenApiValidator;
  let owner: TestUser;
  const tokens = {} as Record<Scope, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      limits: { free: { perMinute: 1000, perDay: 100_000 }, pro: { perMinute: 5, perDay: 100_000 }, aiDailyQuota: 100, pairingPerMinute: 1000 },
    });
    v = await loadOpenApiValidator(t.app);
    owner = await createUser(t, 'free');
    for (const scope of SCOPES) tokens[scope] = (await t.services.keys.mint(owner.id, `only ${scope}`, { scopes: [scope] })).token;
    // A key's first use stamps last_used_at; the manual clock stands still, so later uses write nothing.
    for (const scope of SCOPES) await client(t.app, tokens[scope]).get('me');
  });
  afterAll(async () => t?.close());

  const operations = (): FoundOperation[] => v.operations().filter((o) => !PUBLIC.has(o.path));
  const concrete = (path: string): string => path.replace('{id}', UNKNOWN_ID).replace('{delivery_id}', UNKNOWN_ID);

  it('the document names, for every operation, the scope the contract gives it', () => {
    expect(operations().length).toBeGreaterThan(20);
    for (const { method, path, operation } of operations()) {
      const needed = contractScope(method, path);
      const named = (operation.security ?? []).flatMap((req) => Object.values(req).flat()).sort();
      const expected = needed === 'none' ? [] : needed === 'capture' ? ['capture', 'write'] : [needed];
      expect(named, `${method} ${path}`).toEqual(expected);
    }
  });

  it('answers 403 insufficient_scope to every operation under every scope that does not admit it, and never 403 otherwise', async () => {
    const before = await fingerprint(t.services.db);
    let refused = 0;
    for (const { method, path } of operations()) {
      const needed = contractScope(method, path);
      for (const scope of SCOPES) {
        // An admitted stream stays open (inject would wait for its end); live-changes.test.ts opens it with a read key.
        if (path === '/api/v1/changes/stream' && admits(scope, needed)) continue;
        // An admitted revocation would end the walking key; revoke-current-key.test.ts calls it under every scope.
        if (path === '/api/v1/me/key' && admits(scope, needed)) continue;
        const res = await client(t.app, tokens[scope]).send(method.toUpperCase(), concrete(path), method === 'get' ? undefined : {});
        const what = `${method} ${path} with a ${scope} key → ${res.status} ${res.text.slice(0, 200)}`;
        if (admits(scope, needed)) {
          expect(res.status, what).not.toBe(403);
          continue;
        }
        refused += 1;
        expectError(res, 403, 'insufficient_scope');
        expect((res.body as { required_scope?: string }).required_scope, what).toBe(needed);
        expect(res.headers['www-authenticate'], what).toBe(`Bearer error="insufficient_scope", scope="${String(needed)}"`);
        expect(v.responseProblem(method, concrete(path), 403, res.body, String(res.headers['content-type'])), what).toBeUndefined();
      }
    }
    expect(refused).toBeGreaterThan(50);
    // Admitted requests to unknown ids and empty bodies are refused too (404, 400); nothing of it wrote.
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('a refused request does not count against the rate limits', async () => {
    const pro = await createUser(t, 'pro');
    const reader = (await t.services.keys.mint(pro.id, 'reader', { scopes: ['read'] })).token;
    for (let i = 0; i < 12; i += 1) expectError(await client(t.app, reader).post('capture', { text: `no ${i}` }), 403, 'insufficient_scope');
    const res = await client(t.app, reader).get('items');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('a write key captures, and a capture key can capture but not change or read', async () => {
    const writer = client(t.app, tokens.write);
    const item = ok(await writer.post('capture', { text: 'from a write key' }), 201);
    const capturer = client(t.app, tokens.capture);
    ok(await capturer.post('capture', { text: 'from a capture key' }), 201);
    expectError(await capturer.get(`items/${item.id}`), 403, 'insufficient_scope');
    expectError(await capturer.post(`items/${item.id}/toggle`), 403, 'insufficient_scope');
    ok(await client(t.app, tokens.read).get(`items/${item.id}`));
  });

  it('GET /me needs no scope and shows the key and its scopes', async () => {
    const keys = await t.services.keys.list(owner.id);
    for (const scope of SCOPES) {
      const me = ok(await client(t.app, tokens[scope]).get('me'));
      expect(me.key).toEqual({ id: keys.find((k) => k.label === `only ${scope}`)!.id, scopes: [scope] });
    }
    const both = await t.services.keys.mint(owner.id, 'two', { scopes: ['capture', 'read', 'capture'] });
    expect(both.scopes).toEqual(['read', 'capture']);
    expect(ok(await client(t.app, both.token).get('me')).key.scopes).toEqual(['read', 'capture']);
  });

  it('an expired key answers 401 like a revoked one, with the one 401 message', async () => {
    const key = await t.services.keys.mint(owner.id, 'a day', { expiresInDays: 1 });
    expect(key.expires_at).toBe(new Date(t.clock.now().getTime() + 86_400_000).toISOString());
    ok(await client(t.app, key.token).get('me'));
    t.clock.advance(86_400_000 - 1);
    ok(await client(t.app, key.token).get('me'));
    t.clock.advance(1);
    const expired = await client(t.app, key.token).get('me');
    expectError(expired, 401, 'unauthorized');
    expect(expired.body.message).toBe(UNAUTHORIZED_MESSAGE);
    const revoked = await t.services.keys.mint(owner.id, 'revoked');
    await t.services.keys.revoke(revoked.key_id);
    expect((await client(t.app, revoked.token).get('me')).body.message).toBe(UNAUTHORIZED_MESSAGE);
    expect((await client(t.app).get('me')).body.message).toBe(UNAUTHORIZED_MESSAGE);
    expect((await client(t.app, 'cin_abcdefgh_0123456789abcdef0123456789abcdef').get('me')).body.message).toBe(UNAUTHORIZED_MESSAGE);
    await expect(t.services.keys.list(owner.id).then((ks) => ks.find((k) => k.id === key.key_id)?.expires_at)).resolves.toBe(key.expires_at);
  });

  it('refuses a key with no scope or an expiry out of range', async () => {
    await expect(t.services.keys.mint(owner.id, 'none', { scopes: [] })).rejects.toMatchObject({ code: 'bad_request' });
    for (const days of [0, -1, 1.5, 3651]) {
      await expect(t.services.keys.mint(owner.id, 'odd', { expiresInDays: days })).rejects.toMatchObject({ code: 'bad_request' });
    }
  });
});

describe('route scope declarations', () => {
  it('an authenticated route without a declared scope makes start-up fail', async () => {
    const app = Fastify();
    installScopes(app);
    expect(() => app.get('/forgotten', async () => ({ ok: true }))).toThrow(/declares no scope/);
    await app.close();
  });

  it('public routes need no scope; a declared one becomes its security and 403 answer', async () => {
    const app = Fastify();
    app.addSchema(InsufficientScopeErrorSchema);
    installScopes(app);
    const schemas = new Map<string, { security?: unknown; response?: Record<string, unknown> } | undefined>();
    app.addHook('onRoute', (route) => void schemas.set(`${String(route.method)} ${route.url}`, route.schema as never));
    app.get('/public', { config: { public: true } }, async () => ({ ok: true }));
    app.post('/capture', { config: { scope: 'capture' } }, async () => ({ ok: true }));
    app.get('/me', { config: { scope: 'none' } }, async () => ({ ok: true }));
    await app.ready();
    expect(schemas.get('GET /public')?.security).toBeUndefined();
    expect(schemas.get('POST /capture')?.security).toEqual([{ bearerAuth: ['capture'] }, { bearerAuth: ['write'] }]);
    expect(schemas.get('POST /capture')?.response?.['403']).toMatchObject({ $ref: 'InsufficientScopeError#' });
    expect(schemas.get('GET /me')?.security).toEqual([{ bearerAuth: [] }]);
    expect(schemas.get('GET /me')?.response).toBeUndefined();
    await app.close();
  });
});
