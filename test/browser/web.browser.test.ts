import { describe, expect, it } from 'vitest';
import { newEmail, newState } from '../helpers/web-client.js';
import { useBrowserApp } from './browser-app.js';
import { screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * The web app in a real browser (Debian's chromium through playwright-core), against the app
 * listening on 127.0.0.1 on an ephemeral port. One dialect is enough for pages (the first of the
 * run: SQLite, or PostgreSQL in CI's PostgreSQL pass).
 */
describe.skipIf(lacking(CHROMIUM))('the web app in chromium', () => {
  const t = useBrowserApp();

  it('signs up, captures from the inbox with Enter, toggles the item, mints a key that works against /api/v1/me', async () => {
    const page = await t.freshPage();
    await page.goto('/signup');
    await screenshot(page, 'signup');
    const email = newEmail();
    await t.signUp(page, email);
    expect((await t.services.users.requireByEmail(email)).timezone).toBe('Europe/Berlin');
    // Today is the first page: nothing is due yet.
    await expect.poll(() => page.getByText('Nothing due today').isVisible()).toBe(true);
    await screenshot(page, 'today-empty');

    // In the Inbox, "c" jumps to the capture box; Enter captures, Shift+Enter starts a new line.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.waitForURL(`${t.baseUrl}/inbox`);
    await expect.poll(() => page.getByText('The Inbox is empty').isVisible()).toBe(true);
    await screenshot(page, 'inbox-empty');
    await page.keyboard.press('c');
    await page.keyboard.type('Buy milk');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.baseUrl}/inbox`);
    const capture = page.getByLabel('Capture a note or todo');
    await capture.pressSequentially('Call mom');
    await capture.press('Shift+Enter');
    await capture.pressSequentially('about Sunday lunch');
    await capture.press('Enter');
    await expect.poll(() => page.locator('.item .title').allTextContents()).toEqual(['Call mom', 'Buy milk']);
    expect(await page.locator('.item .content').first().textContent()).toBe('about Sunday lunch');
    await screenshot(page, 'inbox');

    // Done with the keyboard: the item leaves the open list, the focus stays in the list, Undo is offered.
    const toggle = page.getByRole('button', { name: 'Mark “Buy milk” done' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.item .title').allTextContents()).toEqual(['Call mom']);
    expect(await page.locator(':focus').getAttribute('id')).toBe(await page.locator('.item', { hasText: 'Call mom' }).getAttribute('id'));
    expect(await page.locator('[data-toast]').textContent()).toContain('Marked “Buy milk” done.');

    // Delete takes the row at once with Undo (issue 47: a grace period, no confirm()); Undo keeps the item.
    await page.getByLabel('More actions for “Call mom”').click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.item:not([hidden]) .title').allTextContents()).toEqual([]);
    await page.locator('[data-toast]').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.locator('.item:not([hidden]) .title').allTextContents()).toEqual(['Call mom']);
    await page.getByLabel('More actions for “Call mom”').click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.item:not([hidden]) .title').allTextContents()).toEqual([]);

    // "/" jumps to search, which looks through every item; done ones under Show: Done.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    await page.keyboard.type('milk');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('/items?q=milk');
    await page.locator('.filter-more > summary').click();
    await page.getByLabel('Show').selectOption('done');
    await expect.poll(() => page.url()).toContain('show=done');
    expect(await page.locator('.item .title').allTextContents()).toEqual(['Buy milk']);
    await screenshot(page, 'inbox-search');

    await page.getByRole('link', { name: 'Developer settings' }).click();
    await page.getByLabel('Label').fill('browser test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const tokenField = page.getByLabel('New API key');
    const token = await tokenField.inputValue();
    expect(token).toMatch(/^cin_[a-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
    // A string, so the test needs no DOM typings: it runs in the page.
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    await screenshot(page, 'settings-new-key');

    const me = await t.api('GET', 'me', undefined, token);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    const items = await t.api('GET', 'items', undefined, token);
    expect(items.body.items.find((i: { title: string }) => i.title === 'Buy milk')).toMatchObject({ is_completed: true, status: 'done' });

    // Revoking asks first, then the key stops working at once.
    // (Not reload(): that would post the mint form again.)
    await page.goto('/settings/keys');
    await page.getByRole('button', { name: `Revoke “browser test” (cin_${token.split('_')[1]}_…)` }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => page.getByText('The key was revoked.').isVisible()).toBe(true);
    await screenshot(page, 'settings');
    expect((await t.api('GET', 'me', undefined, token)).status).toBe(401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.baseUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or the password is wrong.');
    await screenshot(page, 'login-error');
  }, 90_000);

  it('pairs a client: start via the API, sign in and approve in the browser, exchange via the API, use the token', async () => {
    const email = newEmail();
    await t.signUp(await t.freshPage(), email);

    const state = newState();
    expect((await t.api('POST', 'connect/start', { state, label: 'Claude Desktop' })).status).toBe(200);
    t.clock.advance(60_000);

    const page = await t.freshPage();
    await page.goto(`/connect/agent?state=${state}`);
    await page.waitForURL(/\/login\?next=/);
    await screenshot(page, 'login-for-connect');
    await t.signIn(page, email);
    await page.waitForURL(`${t.baseUrl}/connect/agent?state=${state}`);
    expect(await page.locator('.request-label').textContent()).toBe('Claude Desktop');
    expect(await page.locator('main').textContent()).toContain('(1 minute ago)');
    await screenshot(page, 'connect-approve');

    expect((await t.api('POST', 'connect/exchange', { state })).status).toBe(425);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Approved');
    await screenshot(page, 'connect-approved');

    const exchanged = await t.api('POST', 'connect/exchange', { state });
    expect(exchanged.status).toBe(200);
    const me = await t.api('GET', 'me', undefined, exchanged.body.token);
    expect(me.body.email).toBe(email);
    expect((await t.api('POST', 'capture', { text: 'from the paired agent' }, exchanged.body.token)).status).toBe(201);
    expect((await t.api('POST', 'connect/exchange', { state })).status).toBe(409);

    await page.goto('/settings/keys');
    expect(await page.locator('td[data-label="Label"]').allTextContents()).toContain('Claude Desktop');
    await page.goto('/inbox');
    expect(await page.locator('.item .title').allTextContents()).toContain('from the paired agent');
  }, 90_000);

  it('denies a client: the exchange answers 403', async () => {
    const page = await t.freshPage();
    await t.signUp(page, newEmail());
    const state = newState();
    expect((await t.api('POST', 'connect/start', { state, label: 'Unknown tool' })).status).toBe(200);
    await page.goto(`/connect/agent?state=${state}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Denied');
    await screenshot(page, 'connect-denied');
    const res = await t.api('POST', 'connect/exchange', { state });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('access_denied');
  }, 60_000);

  it('shows a clear page for an expired link, and for an unknown one', async () => {
    const page = await t.freshPage();
    await t.signUp(page, newEmail());
    const state = newState();
    expect((await t.api('POST', 'connect/start', { state, label: 'Slow agent' })).status).toBe(200);
    t.clock.advance(10 * 60_000 + 1);
    const expired = await page.goto(`/connect/agent?state=${state}`);
    expect(expired?.status()).toBe(410);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link has expired');
    await screenshot(page, 'connect-expired');
    const unknown = await page.goto(`/connect/agent?state=${newState()}`);
    expect(unknown?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link is not valid');
    await screenshot(page, 'connect-unknown');
    const missing = await page.goto('/no/such/page');
    expect(missing?.status()).toBe(404);
    await screenshot(page, 'not-found');
  }, 60_000);
});
