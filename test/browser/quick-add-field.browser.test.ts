import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, PHONE, screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

const WIDTHS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

/*
 * Quick add in the field (issue 47 item 7, decision 0098): what is understood is marked in the text
 * itself as it is typed, a polite live region says it, and a wrong reading is refused by a click on
 * it, its chip's × or Backspace right after it; the item then keeps those words and gets no field.
 */
describe.skipIf(lacking(CHROMIUM))('quick add marked in the capture box', () => {
  const t = useBrowserApp({ at: THURSDAY });

  const marks = (page: Page) => page.locator('.quick-add-mirror mark').allTextContents();
  const said = (page: Page) => page.locator('[data-quick-add-said]').textContent();
  const newest = async (userId: string) => (await t.services.items.list(userId, { limit: 1 })).items[0];
  // The first reading loads the date parser on the server: give it longer than the default second.
  const SLOW = { timeout: 10_000 };

  for (const [name, viewport] of WIDTHS) {
    it(`marks "Monday" in "Prepare slides for Monday meeting", under the word, and says it (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/');
      const box = page.getByLabel('Capture a note or todo');
      await box.click();
      await box.pressSequentially('Prepare slides for Monday meeting');
      await expect.poll(() => marks(page), SLOW).toEqual(['Monday']);
      expect(await said(page)).toBe('Understood: Due Monday · Mon 30 Nov · all day.');
      // The mark lies inside the box, on its first line, to the right of "Prepare slides for".
      const field = (await box.boundingBox())!;
      const mark = (await page.locator('.quick-add-mirror mark').boundingBox())!;
      expect(mark.y).toBeGreaterThanOrEqual(field.y);
      expect(mark.y + mark.height).toBeLessThanOrEqual(field.y + field.height);
      expect(mark.x).toBeGreaterThan(field.x + 100);
      expect(mark.x + mark.width).toBeLessThan(field.x + field.width);
      // Screen readers get the plain field: the mirror is hidden from them, the box keeps its name and text.
      expect(await page.locator('.quick-add-mirror').getAttribute('aria-hidden')).toBe('true');
      expect(await box.inputValue()).toBe('Prepare slides for Monday meeting');
      expect(await seriousViolations(page)).toEqual([]);
      // Both sizes from the desktop run (screenshot() takes the page at each).
      if (name === 'desktop') await screenshot(page, 'quick-add-field');
      await page.setViewportSize(viewport);
      await box.press('Enter');
      await expect.poll(() => newest(userId)).toMatchObject({ title: 'Prepare slides for meeting', due_at: '2026-11-29T23:00:00.000Z', all_day: true });
    }, 60_000);

    it(`refuses the date in "Watch Friday night lights" with the chip's ×, so the item keeps the words and no date (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/');
      const box = page.getByLabel('Capture a note or todo');
      // Title Case is read as a name already: nothing is marked.
      await box.fill('Watch Friday Night Lights');
      await box.pressSequentially(' ');
      await page.waitForTimeout(800);
      expect(await marks(page)).toEqual([]);
      await box.fill('');
      await box.pressSequentially('Watch Friday night lights');
      await expect.poll(() => marks(page), SLOW).toEqual(['Friday night']);
      await page.getByRole('button', { name: 'Keep “Friday night” as text' }).click();
      await expect.poll(() => marks(page)).toEqual([]);
      expect(await said(page)).toBe('“Friday night” kept as text.');
      expect(await page.locator('[data-quick-add] [data-kind]').count()).toBe(0);
      // The server's reading with the refusal is asked again and stays empty.
      await page.waitForTimeout(600);
      expect(await marks(page)).toEqual([]);
      await page.getByRole('button', { name: 'Capture', exact: true }).click();
      await expect.poll(() => newest(userId)).toMatchObject({ title: 'Watch Friday night lights', due_at: null, all_day: false });
    }, 60_000);

    it(`refuses a reading from the keyboard alone: Backspace right after it, then Enter (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/');
      const box = page.getByLabel('Capture a note or todo');
      await box.focus();
      await page.keyboard.type('Call mum tomorrow');
      await expect.poll(() => marks(page), SLOW).toEqual(['tomorrow']);
      await page.keyboard.press('Backspace');
      await expect.poll(() => marks(page)).toEqual([]);
      // The reading went, not the last letter; a second Backspace deletes as usual.
      expect(await box.inputValue()).toBe('Call mum tomorrow');
      expect(await said(page)).toBe('“tomorrow” kept as text.');
      await page.keyboard.type(' @phone');
      await expect.poll(() => marks(page), SLOW).toEqual(['@phone']);
      await page.keyboard.press('Enter');
      await expect.poll(() => newest(userId)).toMatchObject({ title: 'Call mum tomorrow', due_at: null, tags: ['phone'] });
    }, 60_000);

    it(`a click on a marked word refuses it once the box has the focus; editing the word reads it again (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/');
      const box = page.getByLabel('Capture a note or todo');
      await box.click();
      await box.pressSequentially('Buy milk @home');
      await expect.poll(() => marks(page), SLOW).toEqual(['@home']);
      const mark = (await page.locator('.quick-add-mirror mark').boundingBox())!;
      await page.mouse.click(mark.x + mark.width / 2, mark.y + mark.height / 2);
      await expect.poll(() => marks(page)).toEqual([]);
      await box.press('End');
      await box.pressSequentially('s');
      await expect.poll(() => marks(page), SLOW).toEqual(['@homes']);
      await page.locator('.quick-add-mirror').evaluate(() => undefined);
      await page.getByRole('button', { name: 'Keep “@homes” as text' }).click();
      await box.press('Enter');
      await expect.poll(() => newest(userId)).toMatchObject({ title: 'Buy milk @homes', tags: [] });
    }, 60_000);
  }

  it('never widens the page when the window narrows: the mirror stays inside its box (a desktop window turned phone)', async () => {
    const { page } = await t.signedUp(DESKTOP);
    await page.goto('/inbox');
    await page.getByLabel('Capture a note or todo').fill('Prepare slides for Monday meeting');
    await expect.poll(() => marks(page), SLOW).toEqual(['Monday']);
    // The box narrows and is measured in the same task, before any resize observer can run: the
    // mirror, drawn at the old width, must already be inside its frame (else the page scrolls sideways).
    const overhang = await page.evaluate(`(() => {
      const frame = document.querySelector('.quick-add-field');
      frame.style.width = '200px';
      return document.querySelector('.quick-add-mirror').getBoundingClientRect().right - frame.getBoundingClientRect().right;
    })()`);
    expect(overhang).toBeLessThanOrEqual(0);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  });
});
