import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';
import { newEmail } from '../helpers/web-client.js';
import { seriousViolations } from './axe.js';
import { useBrowserApp } from './browser-app.js';
import { DESKTOP, screenshot } from './chromium.js';

/* Developer settings → "Connect a calendar app" in chromium: an app password, then a feed made, copied, given a new URL and deleted; and the same without JavaScript. */
describe.skipIf(lacking(CHROMIUM))('connect a calendar app in chromium', () => {
  const t = useBrowserApp({ owner: newEmail() });

  const accessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);
  const feedPath = (url: string) => new URL(url).pathname;

  it('makes an app password and a feed, copies its URL, gives it a new one and deletes it', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { token } = await t.services.keys.mint(userId, 'script');
    expect((await t.api('POST', 'capture', { text: 'dentist', parse: false, due_at: '2026-12-02T14:00:00.000Z' }, token)).status).toBe(201);
    await page.goto('/settings/keys');
    await page.getByRole('link', { name: 'Connect a calendar app' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect a calendar app');
    // PUBLIC_URL's CalDAV address (the test server's setting, not the port it happens to listen on).
    expect(await page.getByLabel('CalDAV server address').inputValue()).toMatch(/^http:\/\/[^/]+\/dav\/$/);

    await page.getByRole('button', { name: 'Make an app password' }).click();
    const password = await page.getByLabel('App password', { exact: true }).inputValue();
    expect(password).toMatch(/^cin_/);
    const dav = await fetch(`${t.baseUrl}/dav/`, {
      method: 'PROPFIND',
      headers: { authorization: `Basic ${Buffer.from(`me:${password}`).toString('base64')}`, depth: '0' },
    });
    expect(dav.status).toBe(207);

    await page.getByLabel('Shows', { exact: true }).selectOption({ label: 'Everything' });
    await page.getByLabel('As', { exact: true }).selectOption('events');
    await page.getByRole('button', { name: 'Make a feed' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Feed made.');
    const url = await page.getByLabel('Feed URL of Everything').inputValue();
    const feed = await fetch(`${t.baseUrl}${feedPath(url)}`);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('SUMMARY:dentist');
    await page.getByRole('button', { name: 'Copy' }).nth(1).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    await accessible(page);
    await screenshot(page, 'calendar-apps');

    // Destructive forms ask in the page (issue 47 item 10), not with the browser's dialog.
    await page.getByRole('button', { name: 'New URL for Everything' }).click();
    await page.getByRole('button', { name: 'Yes, new URL' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('new URL');
    const rotated = await page.getByLabel('Feed URL of Everything').inputValue();
    expect(rotated).not.toBe(url);
    expect((await fetch(`${t.baseUrl}${feedPath(url)}`)).status).toBe(404);

    await page.getByRole('button', { name: 'Delete the feed of Everything' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Feed deleted');
    expect(await page.getByText('No feeds yet.').count()).toBe(1);
    expect((await fetch(`${t.baseUrl}${feedPath(rotated)}`)).status).toBe(404);
  });

  it('works without JavaScript: the forms post and the page comes back', async () => {
    const context = await t.browser.newContext({ baseURL: t.baseUrl, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const email = newEmail();
      await page.goto('/signup');
      await t.signUp(page, email);
      await page.goto('/settings/calendar');
      await page.getByLabel('As', { exact: true }).selectOption('todos');
      await page.getByRole('button', { name: 'Make a feed' }).click();
      await page.waitForURL(/done=made/);
      expect(await page.getByLabel('Feed URL of Everything').inputValue()).toMatch(/\/feeds\/.+\.ics$/);
      await page.getByRole('button', { name: 'Make an app password' }).click();
      expect(await page.getByLabel('App password', { exact: true }).inputValue()).toMatch(/^cin_/);
    } finally {
      await context.close();
    }
  });
});
