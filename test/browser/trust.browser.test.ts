import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/schemas/auth-user.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';
import { sessionUserOf, useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, screenshot } from './chromium.js';

/*
 * Issue 47, the web app people can trust every day, reproduced as found: item 1 (Undo after
 * completing a repeating item skipped a second occurrence and said only "Undone."; delete asked
 * with confirm()), item 8 (every tick downloaded the whole page twice, with no feedback on the
 * circle). The clock is Thursday 26 November 2026, 11:00 in Berlin (the browser's zone).
 */
describe.skipIf(lacking(CHROMIUM))('undo and ticks people can trust, in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  const toast = (page: Page) => page.locator('[data-toast]');
  const rowTitles = (page: Page, group: string) => page.locator(`#${group} > .items > li:not([hidden]) > .line .title`).allTextContents();
  const add = async (user: AuthUser, text: string, extra: { due_at?: string; remind_at?: string; project_id?: string } = {}) =>
    (await t.services.capture.capture(user, { text, ...extra })).item;
  const noDialogs = (page: Page) =>
    page.on('dialog', (dialog) => {
      throw new Error(`unexpected dialog: ${dialog.message()}`);
    });

  it('undoes a weekly item’s completion: back to Fri 27 Nov with no completion logged, and the toast says so', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await sessionUserOf(t, userId);
    const weekly = await add(user, 'Weekly review', { due_at: '2026-11-27T09:00:00.000Z', remind_at: '2026-11-27T08:30:00.000Z' });
    await t.services.items.patch(userId, weekly.id, { recurrence: { rule: 'FREQ=WEEKLY', from: 'due' } });
    await page.goto('/upcoming');
    expect(await rowTitles(page, 'day-1')).toEqual(['Weekly review']);

    await page.getByRole('button', { name: 'Mark “Weekly review” done' }).click();
    await expect.poll(() => toast(page).locator('span').textContent()).toBe('Marked “Weekly review” done; next due Fri 4 Dec, 10:00.');
    expect((await t.services.items.get(userId, weekly.id)).due_at).toBe('2026-12-04T09:00:00.000Z');
    await toast(page).getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => toast(page).locator('span').textContent())
      .toBe('Undone: “Weekly review” is not done, due Fri 27 Nov, 10:00 again; its completion is removed.');
    // Not a second toggle: the same occurrence is due again, nothing logged as done.
    expect(await t.services.items.get(userId, weekly.id)).toMatchObject({
      due_at: '2026-11-27T09:00:00.000Z',
      remind_at: '2026-11-27T08:30:00.000Z',
      is_completed: false,
    });
    expect((await t.services.recurrence.completions(userId, weekly.id, {})).completions).toEqual([]);
    await expect.poll(() => rowTitles(page, 'day-1')).toEqual(['Weekly review']);
    await screenshot(page, 'upcoming-undone');
  }, 90_000);

  it('deletes with a grace period and Undo instead of confirm(): Undo keeps the item, letting it pass deletes it', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await sessionUserOf(t, userId);
    const slides = await add(user, 'Prepare slides', { due_at: '2026-11-26T16:00:00.000Z' });
    const lunch = await add(user, 'Lunch with Ana', { due_at: '2026-11-26T11:30:00.000Z' });
    await page.goto('/');
    noDialogs(page);
    await page.getByLabel('More actions for “Prepare slides”').click();
    await page.locator(`#item-${slides.id}`).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowTitles(page, 'due-today')).toEqual(['Lunch with Ana']);
    expect(await toast(page).locator('span').textContent()).toBe('Deleted “Prepare slides”.');
    await screenshot(page, 'today-delete-grace');
    await toast(page).getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rowTitles(page, 'due-today')).toEqual(['Lunch with Ana', 'Prepare slides']);
    expect(await toast(page).locator('span').textContent()).toBe('Undone: “Prepare slides” is not deleted.');
    expect((await t.services.items.get(userId, slides.id)).title).toBe('Prepare slides');

    // Without Undo, the grace period ends and the delete is sent.
    await page.getByLabel('More actions for “Lunch with Ana”').click();
    await page.locator(`#item-${lunch.id}`).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowTitles(page, 'due-today')).toEqual(['Prepare slides']);
    await expect
      .poll(
        () =>
          t.services.items.get(userId, lunch.id).then(
            () => 'there',
            () => 'gone',
          ),
        { timeout: 20_000 },
      )
      .toBe('gone');
    await page.reload();
    expect(await rowTitles(page, 'due-today')).toEqual(['Prepare slides']);
  }, 90_000);

  it('with 150 rows on Today: the tick shows at once, only its row changes, the echo is skipped, and the page stays small', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await sessionUserOf(t, userId);
    const projects = await Promise.all(['Work', 'Home', 'Errands', 'Reading', 'Garden'].map((name) => t.services.projects.findOrCreate(userId, name)));
    for (let i = 0; i < 150; i += 1) {
      const due = new Date(Date.parse('2026-11-20T08:00:00.000Z') + i * 45 * 60_000).toISOString();
      await add(user, `Task ${String(i).padStart(3, '0')} for the week`, { due_at: due, project_id: projects[i % projects.length]!.id });
    }
    const response = await page.goto('/');
    const todayBytes = (await response!.body()).length;
    expect(todayBytes).toBeLessThan(150_000);
    await expect.poll(() => page.locator('html').getAttribute('data-live')).toBe('open');
    const rows = page.locator('#lists li.item');
    expect(await rows.count()).toBe(150);

    const traffic: Request[] = [];
    page.on('requestfinished', (request) => traffic.push(request));
    // The toggle's answer is held back: the circle is ticked before it comes.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/toggle', async (route) => {
      await held;
      await route.continue();
    });
    const target = page.getByRole('button', { name: 'Mark “Task 010 for the week” done' });
    await target.click();
    await expect
      .poll(() => page.locator('#lists li.item', { hasText: 'Task 010 for the week' }).first().locator('button.check').getAttribute('aria-pressed'))
      .toBe('true');
    release();
    await expect.poll(() => toast(page).locator('span').textContent()).toBe('Marked “Task 010 for the week” done.');
    await expect.poll(() => page.locator('#done-today li.item .title').allTextContents()).toContain('Task 010 for the week');
    // The live echo of this very change comes and is left alone: no page is fetched for it.
    await expect.poll(() => page.locator('html').getAttribute('data-live-skipped'), { timeout: 10_000 }).not.toBeNull();
    const pages = traffic.filter((r) => r.method() === 'GET' && new URL(r.url()).pathname === '/');
    expect(pages).toEqual([]);
    const sizes = await Promise.all(
      traffic.map(async (r) => (await r.sizes()).responseBodySize + (await r.sizes()).responseHeadersSize + (await r.sizes()).requestBodySize),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(20_000);
    expect(await rows.count()).toBe(150);
    expect(await page.locator('#overdue > h2 .count').textContent()).toBe('149');
  }, 180_000);
});
