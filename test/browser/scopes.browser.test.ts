import { describe, expect, it } from 'vitest';
import { SCOPE_DESCRIPTIONS } from '../../src/modules/keys/scopes.js';
import { newState } from '../helpers/web-client.js';
import { useBrowserApp } from './browser-app.js';
import { screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/* Narrowed scopes in a real browser: the pairing approval page, developer settings, and /docs under its CSP. */
describe.skipIf(lacking(CHROMIUM))('scoped keys in chromium', () => {
  const t = useBrowserApp();

  it('pairs with narrowed scopes: the page lists what is asked in plain words, the user unticks one, the key holds the rest', async () => {
    const page = (await t.signedUp()).page;
    const state = newState();
    expect((await t.api('POST', 'connect/start', { state, label: 'Capture bot', scopes: ['read', 'capture', 'write'] })).status).toBe(200);
    await page.goto(`/connect/agent?state=${state}`);
    for (const scope of ['read', 'capture', 'write'] as const) expect(await page.getByLabel(SCOPE_DESCRIPTIONS[scope]).isChecked()).toBe(true);
    expect(await page.getByLabel(SCOPE_DESCRIPTIONS.webhooks).count()).toBe(0);
    await page.getByLabel(SCOPE_DESCRIPTIONS.write).uncheck();
    await screenshot(page, 'connect-approve-scopes');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Approved');

    const exchanged = await t.api('POST', 'connect/exchange', { state });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scopes).toEqual(['read', 'capture']);
    const token = String(exchanged.body.token);
    const captured = await t.api('POST', 'capture', { text: 'captured by a narrow key' }, token);
    expect(captured.status).toBe(201);
    const refused = await t.api('POST', `items/${String(captured.body.id)}/toggle`, undefined, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'insufficient_scope', required_scope: 'write' });

    await page.goto('/settings/keys');
    const row = page.locator('tr', { hasText: 'Capture bot' });
    expect(await row.locator('td[data-label="Scopes"]').textContent()).toBe('read, capture');
  }, 90_000);

  it('approving with every box unticked keeps the request open and says why', async () => {
    const page = (await t.signedUp()).page;
    const state = newState();
    expect((await t.api('POST', 'connect/start', { state, label: 'Reader', scopes: ['read'] })).status).toBe(200);
    await page.goto(`/connect/agent?state=${state}`);
    await page.getByLabel(SCOPE_DESCRIPTIONS.read).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Tick at least one permission');
    expect((await t.api('POST', 'connect/exchange', { state })).status).toBe(425);
  }, 60_000);

  it('developer settings mint a key with chosen scopes and an expiry', async () => {
    const page = (await t.signedUp()).page;
    await page.goto('/settings/keys');
    await page.getByLabel('Label').fill('read-only script');
    for (const scope of ['capture', 'write', 'webhooks'] as const) await page.getByLabel(SCOPE_DESCRIPTIONS[scope]).uncheck();
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const token = (await page.locator('#new-token').inputValue()).trim();
    await screenshot(page, 'settings-scoped-key');
    const me = await t.api('GET', 'me', undefined, token);
    expect(me.body.key).toMatchObject({ scopes: ['read'] });
    expect((await t.api('POST', 'capture', { text: 'nope' }, token)).status).toBe(403);
    const row = page.locator('tr', { hasText: 'read-only script' });
    expect(await row.locator('td[data-label="Scopes"]').textContent()).toBe('read');
    expect(await row.locator('td[data-label="Expires"] time').count()).toBe(1);
  }, 60_000);

  it('/docs renders under its Content-Security-Policy without violations', async () => {
    const page = await t.freshPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const res = await page.goto('/docs');
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(violations).toEqual([]);
  }, 60_000);
});
