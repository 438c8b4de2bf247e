import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetSecretVault } from '../../src/modules/deliveries/target-secrets.js';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { UNKNOWN_ID, UTC_MS, UUID, actor, expectError, ok, type Actor } from '../helpers/items.js';
import { TEST_SECRET_KEY, createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

const WEBHOOK_FIELDS = ['created_at', 'description', 'events', 'id', 'last_failure_at', 'last_failure_reason', 'last_failure_status', 'url'];

describe.each(DIALECTS)('webhook registration (%s)', (dialect) => {
  let t: TestApp;
  let pro: Actor;
  let free: Actor;
  let otherPro: Actor;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    pro = await actor(t, 'pro');
    free = await actor(t, 'free');
    otherPro = await actor(t, 'pro');
  });
  afterAll(async () => t?.close());

  const create = (a: Actor, body: unknown) => a.c.post('webhooks', body);

  describe('POST /api/v1/webhooks', () => {
    it('creates a webhook for a Pro user and shows the secret once', async () => {
      const res = await create(pro, { url: 'https://hooks.example.com/capture', events: ['item.created', 'item.completed'], description: 'CI bot' });
      const body = ok(res, 201);
      expect(Object.keys(body).sort()).toEqual(['secret', 'webhook']);
      expect(Object.keys(body.webhook).sort()).toEqual(WEBHOOK_FIELDS);
      expect(body.webhook).toMatchObject({
        url: 'https://hooks.example.com/capture',
        events: ['item.created', 'item.completed'],
        description: 'CI bot',
        last_failure_status: null,
        last_failure_reason: null,
        last_failure_at: null,
      });
      expect(body.webhook.id).toMatch(UUID);
      expect(body.webhook.created_at).toMatch(UTC_MS);
      expect(body.secret).toMatch(/^cinwh_[A-Za-z0-9_-]{43}$/);

      const list = ok(await pro.c.get('webhooks'));
      expect(list).toEqual({ webhooks: [body.webhook] });
      expect(JSON.stringify(list)).not.toContain(body.secret);
    });

    it('stores only the sealed SHA-256 of the secret, which opens to the signing key', async () => {
      const { webhook, secret } = ok(await create(pro, { url: 'https://hooks.example.com/sealed', events: ['item.updated'] }), 201);
      const digest = createHash('sha256').update(secret).digest('hex');
      const row = await t.services.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow();
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(digest);
      expect(row.sealed_secret).toMatch(/^v1\./);
      expect(createTargetSecretVault(TEST_SECRET_KEY).open(pro.user.id, webhook.id, row.sealed_secret)).toBe(digest);
      expect(() => createTargetSecretVault(TEST_SECRET_KEY).open(otherPro.user.id, webhook.id, row.sealed_secret)).toThrow();
    });

    it('normalises the URL to the form deliveries go to, keeps events once each, description optional', async () => {
      const { webhook } = ok(await create(pro, { url: 'https://Hooks.Example.com', events: ['item.deleted', 'item.deleted', 'item.archived'] }), 201);
      expect(webhook).toMatchObject({ url: 'https://hooks.example.com/', events: ['item.deleted', 'item.archived'], description: null });
      const long = ok(await create(pro, { url: 'https://hooks.example.com/d', events: ['item.created'], description: 'é'.repeat(200) }), 201);
      expect(long.webhook.description).toBe('é'.repeat(200));
    });

    it('answers 402 to a free user and writes nothing', async () => {
      await free.c.get('webhooks'); // a key's first use stamps last_used_at; that write is not the one under test
      const before = await fingerprint(t.services.db);
      expectError(await create(free, { url: 'https://hooks.example.com/free', events: ['item.created'] }), 402, 'pro_required');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it.each([
      ['http://hooks.example.com/', /https/],
      ['https://user:pw@hooks.example.com/', /credentials/],
      ['https://localhost:8443/', /localhost/],
      ['https://nas.local/', /\.local/],
      ['https://foo.internal./', /\.internal/],
      ['https://0x7f.1/', /loopback/],
      ['https://2130706433/', /loopback/],
      ['https://[::ffff:10.0.0.1]/', /private/],
      ['https://192.168.0.10/', /private/],
      ['https://100.64.1.1/', /carrier-grade NAT/],
      ['https://169.254.169.254/', /link-local/],
      ['https://[fe80::1]/', /link-local/],
      ['https://[::1]/', /loopback/],
      ['no url at all', /absolute https/],
    ])('refuses %s with 400 naming the rule, writing nothing', async (url, rule) => {
      await pro.c.get('webhooks');
      const before = await fingerprint(t.services.db);
      const res = await create(pro, { url, events: ['item.created'] });
      expectError(res, 400, 'bad_request');
      expect(res.body.message).toMatch(rule);
      expect(res.body.details).toEqual([{ field: 'url', message: res.body.message }]);
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it.each([
      [{ url: 'https://hooks.example.com/', events: [] }, /events/],
      [{ url: 'https://hooks.example.com/', events: ['item.exploded'] }, /events/],
      [{ url: 'https://hooks.example.com/', events: 'item.created' }, /events/],
      [{ url: 'https://hooks.example.com/' }, /events/],
      [{ events: ['item.created'] }, /url/],
      [{ url: 42, events: ['item.created'] }, /url/],
      [{ url: 'https://hooks.example.com/', events: ['item.created'], description: 'x'.repeat(201) }, /description/],
      [{ url: 'https://hooks.example.com/', events: ['item.created'], description: 5 }, /description/],
    ])('refuses a bad body %j with 400', async (body, field) => {
      const res = await create(pro, body);
      expectError(res, 400, 'bad_request');
      expect(res.body.message).toMatch(field);
    });

    it('allows at most 20 webhooks per user', async () => {
      const owner = await actor(t, 'pro');
      for (let i = 0; i < 20; i += 1) ok(await create(owner, { url: `https://hooks.example.com/${i}`, events: ['item.created'] }), 201);
      const res = await create(owner, { url: 'https://hooks.example.com/21', events: ['item.created'] });
      expectError(res, 400, 'bad_request');
      expect(res.body.message).toMatch(/at most 20 webhooks/);
      expect(ok(await owner.c.get('webhooks')).webhooks).toHaveLength(20);
      // The limit is per user.
      ok(await create(otherPro, { url: 'https://hooks.example.com/other', events: ['item.created'] }), 201);
    });

    it('keeps the limit when creates race', async () => {
      const owner = await actor(t, 'pro');
      for (let i = 0; i < 18; i += 1) ok(await create(owner, { url: `https://hooks.example.com/${i}`, events: ['item.created'] }), 201);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => create(owner, { url: `https://hooks.example.com/race${i}`, events: ['item.created'] })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(2);
      expect(results.filter((r) => r.status === 400)).toHaveLength(4);
      expect(ok(await owner.c.get('webhooks')).webhooks).toHaveLength(20);
    });
  });

  describe('GET /api/v1/webhooks', () => {
    it('lists nothing for a free user and only the caller’s own webhooks', async () => {
      expect(ok(await free.c.get('webhooks'))).toEqual({ webhooks: [] });
      const mine = ok(await pro.c.get('webhooks')).webhooks.map((w: JsonBody) => w.id);
      const theirs = ok(await otherPro.c.get('webhooks')).webhooks.map((w: JsonBody) => w.id);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
    });
  });

  describe('DELETE /api/v1/webhooks/{id}', () => {
    it('deletes the webhook with 200 { ok: true }; then it is gone', async () => {
      const { webhook } = ok(await create(pro, { url: 'https://hooks.example.com/doomed', events: ['item.created'] }), 201);
      expectError(await otherPro.c.delete(`webhooks/${webhook.id}`), 404, 'not_found');
      expect(ok(await pro.c.delete(`webhooks/${webhook.id}`))).toEqual({ ok: true });
      expect(ok(await pro.c.get('webhooks')).webhooks.map((w: JsonBody) => w.id)).not.toContain(webhook.id);
      expectError(await pro.c.delete(`webhooks/${webhook.id}`), 404, 'not_found');
    });

    it('answers 404 for unknown and malformed ids', async () => {
      expectError(await pro.c.delete(`webhooks/${UNKNOWN_ID}`), 404, 'not_found');
      expectError(await pro.c.delete('webhooks/not-a-uuid'), 404, 'not_found');
    });

    it('lets a free user (e.g. after a downgrade) delete their webhooks', async () => {
      const downgraded = await actor(t, 'pro');
      const { webhook } = ok(await create(downgraded, { url: 'https://hooks.example.com/x', events: ['item.created'] }), 201);
      await t.services.users.setPlan(downgraded.user.email, 'free');
      expect(ok(await downgraded.c.get('webhooks')).webhooks).toHaveLength(1);
      expect(ok(await downgraded.c.delete(`webhooks/${webhook.id}`))).toEqual({ ok: true });
    });
  });

  describe('GET /api/v1/webhooks/{id}/deliveries and redeliver', () => {
    it('answer 404 for another user’s, unknown or malformed webhook and delivery ids', async () => {
      const { webhook } = ok(await create(pro, { url: 'https://hooks.example.com/log', events: ['item.created'] }), 201);
      expect(ok(await pro.c.get(`webhooks/${webhook.id}/deliveries`))).toEqual({ deliveries: [], next_cursor: null });
      expectError(await otherPro.c.get(`webhooks/${webhook.id}/deliveries`), 404, 'not_found');
      expectError(await pro.c.get(`webhooks/${UNKNOWN_ID}/deliveries`), 404, 'not_found');
      expectError(await pro.c.get('webhooks/nope/deliveries'), 404, 'not_found');
      expectError(await pro.c.get(`webhooks/${webhook.id}/deliveries?cursor=garbage`), 400, 'bad_request');
      expectError(await pro.c.get(`webhooks/${webhook.id}/deliveries?limit=0`), 400, 'bad_request');
      expectError(await pro.c.post(`webhooks/${webhook.id}/deliveries/${UNKNOWN_ID}/redeliver`), 404, 'not_found');
      expectError(await pro.c.post(`webhooks/${webhook.id}/deliveries/nope/redeliver`), 404, 'not_found');
      expectError(await otherPro.c.post(`webhooks/${webhook.id}/deliveries/${UNKNOWN_ID}/redeliver`), 404, 'not_found');
    });
  });
});
