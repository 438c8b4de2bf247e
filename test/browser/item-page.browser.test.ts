import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { sessionUserOf, useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, PHONE, screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * The item page as a view edited in place, subtasks as an ordered checklist, one date style and one
 * header width, and the smaller defects of issue 33, each with its own check; and web actions
 * counting against the plan's limits.
 */
describe.skipIf(lacking(CHROMIUM))('the item page and the smaller defects in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  const accessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);
  const userOf = (userId: string) => sessionUserOf(t, userId);

  it('shows an item as a view: notes once, no "Todo · To do", a done control; Edit opens the form in place', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await userOf(userId);
    const { item } = await t.services.capture.capture(user, { text: 'Plan the trip\nBook **flights** first', due_at: '2026-11-27T16:00:00.000Z' });
    await page.goto(`/inbox/items/${item.id}`);
    expect(await page.locator('.item-meta').textContent()).not.toContain('Todo · To do');
    expect(await page.locator('.item-meta > span').first().textContent()).toBe('To do');
    // The notes show once: the edit form (with its own copy in a text box) stays closed until asked for.
    expect(await page.getByText('first', { exact: false }).filter({ visible: true }).count()).toBe(1);
    expect(await page.getByLabel('Notes').isVisible()).toBe(false);
    await accessible(page);
    await screenshot(page, 'item');
    await page.getByRole('button', { name: 'Mark done' }).click();
    await expect.poll(async () => (await t.services.items.get(userId, item.id)).is_completed).toBe(true);
    expect(await page.getByRole('button', { name: 'Mark not done' }).getAttribute('aria-pressed')).toBe('true');
    await page.locator('details#edit > summary').click();
    expect(await page.getByLabel('Notes').inputValue()).toBe('Book **flights** first');
    await screenshot(page, 'item-editing');
  }, 60_000);

  it('lists subtasks in the order they were added, adds one without a reload, and shows them under their item in lists', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await userOf(userId);
    const { item } = await t.services.capture.capture(user, { text: 'Move house' });
    for (const step of ['Book the van', 'Pack the books']) {
      t.clock.advance(1000);
      await t.services.subtasks.add(user, item.id, step);
    }
    await page.goto(`/inbox/items/${item.id}`);
    expect(await page.locator('.checklist a').allTextContents()).toEqual(['Book the van', 'Pack the books']);
    await page.evaluate('window.stillHere = true');
    await page.getByLabel('Add subtask').fill('Return the keys');
    await page.getByLabel('Add subtask').press('Enter');
    await expect.poll(() => page.locator('.checklist a').allTextContents()).toEqual(['Book the van', 'Pack the books', 'Return the keys']);
    expect(await page.evaluate('window.stillHere')).toBe(true);
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('subtask-text');
    await page.getByRole('button', { name: 'Mark “Book the van” done' }).click();
    await expect.poll(() => page.locator('#subtasks-heading .count').textContent()).toBe('1/3 done');
    await accessible(page);
    await screenshot(page, 'item-subtasks');

    // In the Inbox list: under their item, not loose rows.
    await page.goto('/inbox');
    expect(await page.locator('#open > .items > li > .line .title').allTextContents()).toEqual(['Move house']);
    expect(await page.locator('.subtasks .title').allTextContents()).toEqual(['Book the van', 'Pack the books', 'Return the keys']);
    await screenshot(page, 'inbox-subtasks');
  }, 60_000);

  it('writes dates one way, in the browser’s locale: "5 PM" and "9:30 AM" (no padded hour) in American English', async () => {
    const { userId, email } = await t.signedUp(DESKTOP);
    const user = await userOf(userId);
    await t.services.capture.capture(user, { text: 'Ship it', due_at: '2026-11-26T16:00:00.000Z' });
    await t.services.capture.capture(user, { text: 'Early call', due_at: '2026-11-26T08:30:00.000Z' });
    const us = await t.signedInPage(email, { locale: 'en-US' });
    expect(us.url()).toBe(`${t.baseUrl}/`);
    expect(await us.locator('.due time').allTextContents()).toEqual(['overdue, today 9:30 AM', 'today 5 PM']);
    await us.context().close();
  }, 60_000);

  it('keeps one header width on every page, and the check circle’s border at 3:1 or more against its row in light and dark', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await t.services.capture.capture(await userOf(userId), { text: 'Contrast' });
    const widths: number[] = [];
    for (const path of ['/', '/inbox', '/projects', '/account', '/settings/keys']) {
      await page.goto(path);
      const box = await page.locator('header.top nav').boundingBox();
      widths.push(Math.round(box!.x), Math.round(box!.width));
    }
    expect(new Set(widths.filter((_, i) => i % 2 === 0)).size).toBe(1);
    await page.goto('/inbox');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const ratio = await page
        .locator('li.item .check')
        .first()
        .evaluate((check) => {
          const style = (el: unknown) =>
            (globalThis as unknown as { getComputedStyle(el: unknown): { borderTopColor: string; backgroundColor: string } }).getComputedStyle(el);
          const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
          const lum = (c: string) => {
            const [r = 0, g = 0, b = 0] = rgb(c).map((v) => {
              const s = v / 255;
              return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const border = lum(style(check).borderTopColor);
          const row = lum(style(check.closest('li')).backgroundColor);
          return (Math.max(border, row) + 0.05) / (Math.min(border, row) + 0.05);
        });
      expect(ratio, colorScheme).toBeGreaterThanOrEqual(3);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }, 60_000);

  it('refuses a paste over 100,000 characters with a clear message and keeps the text', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await page.goto('/inbox');
    const text = `Long paste\n${'x'.repeat(101_500)}`;
    await page.getByLabel('Capture a note or todo').fill(text);
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await expect.poll(() => page.locator('#capture-error').textContent()).toContain('a capture holds at most 100,000');
    expect((await page.getByLabel('Capture a note or todo').inputValue()).length).toBe(text.length);
    expect((await t.services.items.list(userId, {})).items).toEqual([]);
    await accessible(page);
  }, 60_000);

  it('tells a user without a speech engine what to do, with no package names', async () => {
    const { page } = await t.signedUp(DESKTOP, 'pro');
    await page.goto('/inbox');
    await page.getByLabel('Capture a note or todo').focus();
    await page.getByRole('button', { name: 'Record' }).click();
    // Without a speech engine, or without a microphone in headless chromium: either way a sentence for a person.
    await expect
      .poll(() => page.locator('[data-voice-status]').textContent())
      .toMatch(/^(Voice capture is not available on this server yet|This browser cannot record audio|The microphone is not available)/);
    expect(await page.locator('[data-voice-status]').textContent()).not.toContain('apt-get');
  }, 60_000);

  it('organizes a capture made on a project page there, with no undo= in the address, and Back does not show the notice again', async () => {
    const { page, userId } = await t.signedUp(DESKTOP, 'pro');
    const garden = await t.services.projects.findOrCreate(userId, 'Garden');
    await page.goto(`/projects/${garden.id}`);
    await page.getByLabel('Capture a note or todo').fill('Plant tulips tomorrow 5pm');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await expect.poll(() => page.locator('.organized').textContent()).toContain('Organized');
    expect(page.url()).toBe(`${t.baseUrl}/projects/${garden.id}`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.waitForURL(`${t.baseUrl}/projects`);
    await page.goBack();
    await page.waitForURL(`${t.baseUrl}/projects/${garden.id}`);
    expect(await page.locator('.organized').count()).toBe(0);
  }, 60_000);

  it('says on the share page that nothing is saved yet', async () => {
    const { page } = await t.signedUp(PHONE);
    await page.goto('/share?title=Read%20later&url=https%3A%2F%2Fexample.org%2Fa');
    const notice = await page.getByRole('status').first().textContent();
    expect(notice).toContain('Not saved yet.');
    expect(notice).not.toContain('Shared to your inbox');
    expect(await page.getByLabel('Capture a note or todo').inputValue()).toBe('Read later\nhttps://example.org/a');
    await accessible(page);
    await screenshot(page, 'share');
  }, 60_000);
});
