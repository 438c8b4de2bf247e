import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_DESCRIPTIONS } from '../../src/modules/keys/scopes.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { newEmail, newState } from '../helpers/web-client.js';
import { launchChromium, newContext, screenshot } from './chromium.js';

const PASSWORD = 'correct horse battery';

/* Narrowed scopes in a real browser: the pairing approval page, developer settings, and /docs under its CSP. */
describe('scoped keys in chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp(DIALECTS[0] ?? 'sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const api = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${baseUrl}/api/v1/${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  async function signedUpPage(): Promise<Page> {
    const page = await (await newContext(browser, baseUrl)).newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${baseUrl}/`);
    return page;
  }

  it('pairs with narrowed scopes: the page lists what is asked in plain words, the user unticks one, the key holds the rest', async () => {
    const page = await signedUpPage();
    const state = newState();
    expect((await api('POST', 'connect/start', { state, label: 'Capture bot', scopes: ['read', 'capture', 'write'] })).status).toBe(200);
    await page.goto(`/connect/agent?state=${state}`);
    for (const scope of ['read', 'capture', 'write'] as const) expect(await page.getByLabel(SCOPE_DESCRIPTIONS[scope]).isChecked()).toBe(true);
    expect(await page.getByLabel(SCOPE_DESCRIPTIONS.webhooks).count()).toBe(0);
    await page.getByLabel(SCOPE_DESCRIPTIONS.write).uncheck();
    await screenshot(page, 'connect-approve-scopes');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Approved');

    const exchanged = await api('POST', 'connect/exchange', { state });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scopes).toEqual(['read', 'capture']);
    const token = String(exchanged.body.token);
    const captured = await api('POST', 'capture', { text: 'captured by a narrow key' }, token);
    expect(captured.status).toBe(201);
    const refused = await api('POST', `items/${String(captured.body.id)}/toggle`, undefined, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'insufficient_scope', required_scope: 'write' });

    await page.goto('/settings/keys');
    const row = page.locator('tr', { hasText: 'Capture bot' });
    expect(await row.locator('td[data-label="Scopes"]').textContent()).toBe('read, capture');
  }, 90_000);

  it('approving with every box unticked keeps the request open and says why', async () => {
    const page = await signedUpPage();
    const state = newState();
    expect((await api('POST', 'connect/start', { state, label: 'Reader', scopes: ['read'] })).status).toBe(200);
    await page.goto(`/connect/agent?state=${state}`);
    await page.getByLabel(SCOPE_DESCRIPTIONS.read).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Tick at least one permission');
    expect((await api('POST', 'connect/exchange', { state })).status).toBe(425);
  }, 60_000);

  it('developer settings mint a key with chosen scopes and an expiry', async () => {
    const page = await signedUpPage();
    await page.goto('/settings/keys');
    await page.getByLabel('Label').fill('read-only script');
    for (const scope of ['capture', 'write', 'webhooks'] as const) await page.getByLabel(SCOPE_DESCRIPTIONS[scope]).uncheck();
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const token = (await page.locator('#new-token').inputValue()).trim();
    await screenshot(page, 'settings-scoped-key');
    const me = await api('GET', 'me', undefined, token);
    expect(me.body.key).toMatchObject({ scopes: ['read'] });
    expect((await api('POST', 'capture', { text: 'nope' }, token)).status).toBe(403);
    const row = page.locator('tr', { hasText: 'read-only script' });
    expect(await row.locator('td[data-label="Scopes"]').textContent()).toBe('read');
    expect(await row.locator('td[data-label="Expires"] time').count()).toBe(1);
  }, 60_000);

  it('/docs renders under its Content-Security-Policy without violations', async () => {
    const page = await (await newContext(browser, baseUrl)).newPage();
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
