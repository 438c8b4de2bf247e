import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { sessionUserOf, useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, PHONE, screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * The filter box and saved views in chromium (issue 48): the parser, bundled into the page script,
 * shows its error under the place reading stopped as the user types; the page works without the
 * script; "Save this view" puts the view in the navigation beside Today, Upcoming and the Inbox,
 * where it can be reordered. The clock is Thursday 26 November 2026, 11:00 in Berlin.
 */
describe.skipIf(lacking(CHROMIUM))('filters in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  async function seed(userId: string) {
    const user = await sessionUserOf(t, userId);
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const add = (text: string, extra: { due_at?: string; project_id?: string; tags?: string[] } = {}) => t.services.capture.capture(user, { text, ...extra });
    await add('Send the report', { due_at: '2026-11-24T16:00:00.000Z', project_id: work.id });
    await add('Call the bank', { project_id: work.id, tags: ['calls'] });
    await add('Call Ana', { tags: ['calls'] });
    await add('Lunch with Ana', { due_at: '2026-11-26T11:30:00.000Z' });
    await add('Quarterly review', { due_at: '2026-12-02T09:00:00.000Z', project_id: work.id });
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const rowTitles = (page: Page) => page.locator('#lists .items > li:not([hidden]) .title').allTextContents();
  /** Where the caret sits, relative to the character it should be under. */
  async function caretOffset(page: Page, inputId: string, position: number): Promise<number> {
    // A string, so the test needs no DOM typings: it runs in the page.
    return page.evaluate(`(() => {
      const input = document.getElementById(${JSON.stringify(inputId)});
      const caret = document.querySelector(${JSON.stringify(`#${inputId}-error .caret-line`)});
      const range = document.createRange();
      range.setStart(caret.firstChild, ${position});
      range.setEnd(caret.firstChild, ${position + 1});
      const caretX = range.getBoundingClientRect().left;
      // The input's character at the position, measured with the input's own font from its text start.
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = style.font;
      const textX = input.getBoundingClientRect().left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft) - input.scrollLeft;
      return caretX - (textX + ctx.measureText(input.value.slice(0, ${position})).width);
    })()`);
  }

  it('shows the error under its place as you type, lists what a query picks, and saves the view into the navigation', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await seed(userId);
    await nav(page).getByRole('link', { name: 'Filters' }).click();
    await page.waitForURL(`${t.baseUrl}/filters`);
    const box = page.getByLabel('Filter', { exact: true });
    await box.click();
    await box.pressSequentially('today & #');
    const error = page.locator('#filter-q-error');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await error.locator('.field-error').textContent()).toBe('Expected a project name after #.');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(Math.abs(await caretOffset(page, 'filter-q', 9))).toBeLessThan(2);
    await screenshot(page, 'filter-box-error');

    // Fixing it clears the error before anything is sent.
    await box.press('Backspace');
    await box.pressSequentially('#Work | @calls');
    await expect.poll(() => error.isVisible()).toBe(false);
    await box.fill('');
    await box.pressSequentially('(today | overdue');
    await expect.poll(() => error.locator('.field-error').textContent()).toBe('Expected ) to close the (.');
    expect(Math.abs(await caretOffset(page, 'filter-q', 16))).toBeLessThan(2);
    await box.press('End');
    await box.pressSequentially(')');
    await expect.poll(() => error.isVisible()).toBe(false);
    await box.press('Enter');
    await page.waitForURL(/\/filter\?q=/);
    expect(await rowTitles(page)).toEqual(['Send the report', 'Lunch with Ana']);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByText('Save this view').click();
    await page.getByLabel('Name').fill('Due now');
    await page.getByLabel('Color').selectOption({ label: 'Red' });
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.waitForURL(/\/filters\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Due now');
    expect(await rowTitles(page)).toEqual(['Send the report', 'Lunch with Ana']);
    const link = nav(page).getByRole('link', { name: 'Due now' });
    expect(await link.getAttribute('aria-current')).toBe('page');
    // Beside Today, Upcoming and the Inbox: right after the Inbox, before Filters.
    expect(await nav(page).locator('.links > a').allTextContents()).toEqual(expect.arrayContaining(['Today', 'Upcoming', 'Inbox', 'Due now', 'Filters']));
    const order = await nav(page).locator('.links > a').allTextContents();
    expect(order.indexOf('Due now')).toBe(order.indexOf('Inbox') + 1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'saved-view');

    // Acting on a row in place keeps the page and the view.
    await page.getByRole('button', { name: 'Mark “Lunch with Ana” done' }).click();
    await expect.poll(() => page.locator('[data-toast]').textContent()).toContain('Marked “Lunch with Ana” done');
    expect(page.url()).toMatch(/\/filters\/[0-9a-f-]{36}$/);

    // A second view, then reordered to the front from /filters.
    await page.goto(`/filter?q=${encodeURIComponent('#Work & @calls')}`);
    expect(await rowTitles(page)).toEqual(['Call the bank']);
    await page.getByText('Save this view').click();
    await page.getByLabel('Name').fill('Work calls');
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.waitForURL(/\/filters\/[0-9a-f-]{36}$/);
    await nav(page).getByRole('link', { name: 'Filters' }).click();
    await page.getByRole('button', { name: 'Move up “Work calls”' }).click();
    await page.waitForURL(/\/filters#view-/);
    const views = await nav(page).locator('a.view').allTextContents();
    expect(views).toEqual(['Work calls', 'Due now']);
    await screenshot(page, 'filters-index');
  });

  it('works without the page script: the server shows the same error, and the edit form too', async () => {
    const context = await t.browser.newContext({ baseURL: t.baseUrl, javaScriptEnabled: false, viewport: PHONE, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(`nojs-${Date.now()}@example.test`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${t.baseUrl}/`);
    await page.goto('/filters');
    await page.getByLabel('Filter', { exact: true }).fill('today tomorrow');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\/filter\?q=/);
    expect(await page.locator('#filter-q-error .field-error').textContent()).toBe('Expected & or | before "tomorrow".');
    expect(await page.locator('#filter-q-error .caret-line').textContent()).toBe(`${' '.repeat(6)}^`);
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: 'docs/screenshots/filter-no-script-phone.png', fullPage: true });
    await context.close();
  });
});
