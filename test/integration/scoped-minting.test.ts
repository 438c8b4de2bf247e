import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_DESCRIPTIONS } from '../../src/modules/keys/scopes.js';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { expectError, ok } from '../helpers/items.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { newState, signedInBrowser, type WebClient } from '../helpers/web-client.js';

const DAY = 86_400_000;
/** What the page's form sends: the marker that the boxes were shown, and the ticked ones. */
const CHOICE = { scope_choice: '1' };

describe.each(DIALECTS)('minting scoped keys (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ web, userId } = await signedInBrowser(t));
  });
  afterAll(async () => t?.close());

  const api = () => client(t.app);

  describe('developer settings', () => {
    it('offers every scope, ticked, and an expiry', async () => {
      const page = (await web.get('/settings/keys')).body;
      for (const scope of ['read', 'capture', 'write', 'webhooks']) expect(page).toContain(`name="scope" value="${scope}" checked`);
      expect(page).toContain('name="expires_in_days"');
    });

    it('mints a key with the ticked scopes and expiry; the list shows both', async () => {
      const res = await web.submit('/settings/keys', '/settings/keys', { ...CHOICE, label: 'capture only', scope: 'capture', expires_in_days: '7' });
      expect(res.status).toBe(200);
      const token = /id="new-token"[^>]*>([^<]+)<\/textarea>/.exec(res.body)![1]!;
      const me = ok(await client(t.app, token).get('me'));
      expect(me.key.scopes).toEqual(['capture']);
      expectError(await client(t.app, token).get('items'), 403, 'insufficient_scope');
      const key = (await t.services.keys.list(userId)).find((k) => k.label === 'capture only')!;
      expect(key.expires_at).toBe(new Date(t.clock.now().getTime() + 7 * DAY).toISOString());
      const page = (await web.get('/settings/keys')).body;
      expect(page).toMatch(
        /<td data-label="Label">capture only<\/td>[\s\S]*?<td data-label="Scopes">capture<\/td>\s*<td data-label="Expires"><time datetime="[^"]+">/,
      );
    });

    it('refuses a key with nothing ticked or an odd expiry, and mints nothing', async () => {
      const before = await fingerprint(t.services.db);
      const none = await web.submit('/settings/keys', '/settings/keys', { ...CHOICE, label: 'nothing' });
      expect(none.status).toBe(400);
      expect(none.body).toContain('Tick at least one thing the key may do.');
      for (const days of ['0', '3651', 'soon', '1.5']) {
        const res = await web.submit('/settings/keys', '/settings/keys', { ...CHOICE, label: 'odd', scope: 'read', expires_in_days: days });
        expect(res.status, days).toBe(400);
      }
      expect(await fingerprint(t.services.db)).toEqual(before);
    });
  });

  describe('pairing', () => {
    const approvalPage = (state: string) => `/connect/agent?state=${state}`;

    it('start refuses unknown scope names and an empty list with 400, writing nothing', async () => {
      const before = await fingerprint(t.services.db);
      for (const scopes of [['read', 'admin'], [], 'read', [1]]) {
        expectError(await api().post('connect/start', { state: newState(), label: 'agent', scopes }), 400, 'bad_request');
      }
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('lists the asked-for scopes in plain words; the minted key holds what the user left ticked', async () => {
      const state = newState();
      ok(await api().post('connect/start', { state, label: 'Narrow agent', scopes: ['capture', 'read'] }));
      const page = (await web.get(approvalPage(state))).body;
      expect(page).toContain(SCOPE_DESCRIPTIONS.read);
      expect(page).toContain(SCOPE_DESCRIPTIONS.capture);
      expect(page).not.toContain(SCOPE_DESCRIPTIONS.write);
      expect(page).not.toContain(SCOPE_DESCRIPTIONS.webhooks);
      // The user unticks read.
      const res = await web.submit(approvalPage(state), '/connect/agent', { ...CHOICE, state, decision: 'approve', scope: 'capture' });
      expect(res.status).toBe(200);
      const key = ok(await api().post('connect/exchange', { state }));
      expect(key.scopes).toEqual(['capture']);
      expect(ok(await client(t.app, key.token).get('me')).key).toEqual({ id: key.key_id, scopes: ['capture'] });
      expectError(await client(t.app, key.token).get('items'), 403, 'insufficient_scope');
    });

    it('a ticked scope that was not asked for is not granted', async () => {
      const state = newState();
      ok(await api().post('connect/start', { state, label: 'Reader', scopes: ['read'] }));
      const res = await web.submit(approvalPage(state), '/connect/agent', { ...CHOICE, state, decision: 'approve', scope: 'webhooks' });
      expect(res.status).toBe(400);
      // Nothing asked for was ticked: the request stays open.
      expect((await api().post('connect/exchange', { state })).status).toBe(425);
    });

    it('approving with nothing ticked shows the form again and leaves the request open', async () => {
      const state = newState();
      ok(await api().post('connect/start', { state, label: 'Agent' }));
      const res = await web.submit(approvalPage(state), '/connect/agent', { ...CHOICE, state, decision: 'approve' });
      expect(res.status).toBe(400);
      expect(res.body).toContain('Tick at least one permission');
      expectError(await api().post('connect/exchange', { state }), 425, 'not_approved');
    });

    it('without scopes in start, all four are asked for and granted', async () => {
      const state = newState();
      ok(await api().post('connect/start', { state, label: 'Full agent' }));
      const page = (await web.get(approvalPage(state))).body;
      for (const words of Object.values(SCOPE_DESCRIPTIONS)) expect(page).toContain(words);
      await web.submit(approvalPage(state), '/connect/agent', { state, decision: 'approve' });
      expect(ok(await api().post('connect/exchange', { state })).scopes).toEqual(['read', 'capture', 'write', 'webhooks']);
    });
  });
});
