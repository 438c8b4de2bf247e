import { describe, expect, it } from 'vitest';
import { newEmail } from '../helpers/web-client.js';
import { useBrowserApp } from './browser-app.js';
import { screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * Running it for real, in chromium: the owner's admin page, and /docs "Try it out" from 127.0.0.1
 * while PUBLIC_URL names another address (the document's server URL is relative).
 */
describe.skipIf(lacking(CHROMIUM))('admin page and /docs in chromium', () => {
  const t = useBrowserApp({ app: { publicUrl: 'http://inbox.example.org:8443' } });

  it('lets the first user list users, make one Pro and close sign-up', async () => {
    const owner = await t.freshPage();
    await t.signUp(owner, newEmail());
    const guest = await t.freshPage();
    const guestEmail = newEmail();
    await t.signUp(guest, guestEmail);

    await owner.goto('/settings/keys');
    await owner.getByRole('link', { name: 'Server administration' }).click();
    await owner.waitForURL(`${t.baseUrl}/admin`);
    const row = owner.getByRole('row').filter({ hasText: guestEmail });
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('Free');
    await row.getByRole('button', { name: `Set ${guestEmail} to Pro` }).click();
    await owner.waitForURL(`${t.baseUrl}/admin?done=plan`);
    await expect(owner.getByRole('row').filter({ hasText: guestEmail }).getByRole('cell').nth(1).textContent()).resolves.toBe('Pro');

    await owner.getByRole('button', { name: 'Close sign-up' }).click();
    await owner.waitForURL(`${t.baseUrl}/admin?done=signup`);
    await expect(owner.locator('[data-signup-state]').getAttribute('data-signup-state')).resolves.toBe('closed');
    await screenshot(owner, 'admin');

    const stranger = await t.freshPage();
    await stranger.goto('/signup');
    await expect(stranger.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign-up is closed');
    await guest.goto('/admin');
    await expect(guest.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/not found/i);
    await owner.getByRole('button', { name: 'Open sign-up' }).click();
    await owner.waitForURL(`${t.baseUrl}/admin?done=signup`);
  });

  it('runs "Try it out" in /docs against the address the page was loaded from', async () => {
    const user = await t.services.users.create({ email: newEmail() });
    const { token } = await t.services.keys.mint(user.id, 'docs');
    const page = await t.freshPage();
    page.setDefaultTimeout(8000);
    await page.goto('/docs');
    await expect(page.title()).resolves.toBe('Capture Inbox API reference');
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(token);
    await page.locator('.modal-ux button.modal-btn.auth.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('#operations-account-getMe');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    await expect(status.textContent()).resolves.toContain('200');
    await expect(operation.locator('.request-url pre').textContent()).resolves.toBe(`${t.baseUrl}/api/v1/me`);
    await expect(operation.locator('.live-responses-table').first().textContent()).resolves.toContain(user.email);

    // The examples of capture, search and pairing are part of the reference.
    const capture = page.locator('#operations-items-capture');
    await capture.locator('.opblock-summary').click();
    await expect(capture.textContent()).resolves.toContain('curl -X POST "$BASE/api/v1/capture"');
    await screenshot(page, 'docs', { sideways: 'Swagger UI lays out its own page' });
  });
});
