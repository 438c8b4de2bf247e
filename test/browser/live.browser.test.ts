import { describe, expect, it } from 'vitest';
import { useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * An open page follows the live change stream (issue 33 point 5): a capture made through the API,
 * or a completion in another tab, shows on an open Today without a reload, and what the user is
 * doing on the page (text typed in the capture box, the focus, the Undo toast) is left alone.
 * The clock is Thursday 26 November 2026, 11:00 in Berlin.
 */
describe.skipIf(lacking(CHROMIUM))('live updates in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  it('shows a capture made through the API on an open Today, keeps the typed text, the focus and the Undo toast, and follows another tab', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { token } = await t.services.keys.mint(userId, 'phone');
    const capture = async (text: string, due_at: string) => {
      const res = await t.api('POST', 'capture', { text, due_at }, token);
      expect(res.status).toBe(201);
      return res.body;
    };
    const first = await capture('Water the plants', '2026-11-26T15:00:00.000Z');
    await page.goto('/');
    await page.locator('html[data-live="open"]').waitFor({ timeout: 5_000 });
    // No reload may happen: a reload would lose this mark.
    await page.evaluate('window.notReloaded = true');

    // Acting in place: the Undo toast is up when the change from elsewhere arrives.
    await page.getByRole('button', { name: 'Mark “Water the plants” done' }).click();
    await page.getByRole('status').filter({ hasText: 'Marked “Water the plants” done.' }).waitFor();
    // Half a thought typed in the capture box, the focus in it.
    const box = page.getByLabel('Capture a note or todo');
    await box.fill('half a thought, not saved yet');

    const started = Date.now();
    await capture('Call the plumber', '2026-11-26T16:00:00.000Z');
    await page.locator('#due-today .title', { hasText: 'Call the plumber' }).waitFor({ timeout: 5_000 });
    const waitedMs = Date.now() - started;
    expect(waitedMs).toBeLessThan(5_000);

    expect(await page.evaluate('window.notReloaded')).toBe(true);
    expect(await box.inputValue()).toBe('half a thought, not saved yet');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('capture-text');
    const toast = page.locator('[data-toast]');
    expect(await toast.isVisible()).toBe(true);
    expect(await toast.getByRole('button', { name: 'Undo' }).isVisible()).toBe(true);
    expect(await page.locator('#done-today .title').allTextContents()).toEqual(['Water the plants']);
    await screenshot(page, 'live-today');

    // Another tab completes the new item: this one moves it to Done today by itself.
    const other = await page.context().newPage();
    await other.goto('/');
    await other.getByRole('button', { name: 'Mark “Call the plumber” done' }).click();
    await other.getByRole('status').filter({ hasText: 'Marked “Call the plumber” done.' }).waitFor();
    await expect.poll(() => page.locator('#done-today li.item').count(), { timeout: 5_000 }).toBe(2);
    expect(await page.locator('#due-today').count()).toBe(0);
    expect(await box.inputValue()).toBe('half a thought, not saved yet');
    expect(first.id).toBeDefined();
  }, 60_000);

  it('updates an open item page when the item is edited through the API', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { token } = await t.services.keys.mint(userId, 'laptop');
    const item = (await t.api('POST', 'capture', { text: 'Draft the newsletter' }, token)).body;
    await page.goto(`/inbox/items/${item.id}`);
    await page.locator('html[data-live="open"]').waitFor({ timeout: 5_000 });
    const subtask = page.getByLabel('Add subtask');
    await subtask.fill('typed, not added');
    const res = await t.api('PATCH', `items/${item.id}`, { title: 'Draft and send the newsletter', tags: ['writing'] }, token);
    expect(res.status).toBe(200);
    await page.locator('h1', { hasText: 'Draft and send the newsletter' }).waitFor({ timeout: 5_000 });
    expect(await page.locator('.item-meta .tag').allTextContents()).toEqual(['@writing']);
    expect(await subtask.inputValue()).toBe('typed, not added');
  }, 60_000);
});
