import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/schemas/auth-user.js';
import { seriousViolations } from './axe.js';
import { sessionUserOf, useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, NO_SCRIPT, PHONE, screenshot, TOUCH_PHONE } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * The web app as a daily loop (issue 33): Today, Upcoming, the Inbox and projects; acting on an
 * item in place with Undo; the keyboard; the phone layout. The clock is Thursday 26 November 2026,
 * 11:00 in Berlin (the browser's zone, which sign-up takes).
 */
describe.skipIf(lacking(CHROMIUM))('the daily loop in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  const accessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);
  // A row being deleted is hidden during its grace period (issue 47).
  const rowTitles = (page: Page, group: string) => page.locator(`#${group} > .items > li:not([hidden]) > .line .title`).allTextContents();
  const userOf = (userId: string) => sessionUserOf(t, userId);
  const add = async (user: AuthUser, text: string, extra: { due_at?: string; project_id?: string } = {}) =>
    (await t.services.capture.capture(user, { text, ...extra })).item;

  /** A day's worth of items: two overdue, two due today, one tomorrow, one next week, one in the Inbox without a date. */
  async function seed(userId: string) {
    const user = await userOf(userId);
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const items = {
      report: await add(user, 'Send the report', { due_at: '2026-11-24T16:00:00.000Z', project_id: work.id }),
      dentist: await add(user, 'Call the dentist', { due_at: '2026-11-25T08:00:00.000Z' }),
      slides: await add(user, 'Prepare slides', { due_at: '2026-11-26T16:00:00.000Z', project_id: work.id }),
      lunch: await add(user, 'Lunch with Ana', { due_at: '2026-11-26T11:30:00.000Z' }),
      milk: await add(user, 'Buy milk', { due_at: '2026-11-27T16:00:00.000Z' }),
      review: await add(user, 'Quarterly review', { due_at: '2026-12-02T09:00:00.000Z', project_id: work.id }),
      idea: await add(user, 'Idea: a garden bench'),
    };
    return { user, work, items };
  }

  it('Today shows overdue first, then due today; Upcoming groups the next 14 days; the Inbox is the triage queue', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { items } = await seed(userId);
    await page.goto('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Today');
    expect(await rowTitles(page, 'overdue')).toEqual(['Send the report', 'Call the dentist']);
    expect(await rowTitles(page, 'due-today')).toEqual(['Lunch with Ana', 'Prepare slides']);
    // One date style: the locale's (en-GB here), no padded hour.
    expect(await page.locator('#due-today .due').first().textContent()).toBe('today 12:30');
    await accessible(page);
    await screenshot(page, 'today');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upcoming' }).click();
    await page.waitForURL(`${t.baseUrl}/upcoming`);
    // Overdue first, as on Today (issue 47 item 10), with its "Reschedule all overdue to today".
    expect(await page.locator('.group-heading').allTextContents()).toEqual(['Overdue 2', 'Today 2', 'Tomorrow 1', 'Wednesday 2 December 1']);
    expect(await rowTitles(page, 'day-1')).toEqual(['Buy milk']);
    await accessible(page);
    await screenshot(page, 'upcoming');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.waitForURL(`${t.baseUrl}/inbox`);
    expect(await rowTitles(page, 'open')).toEqual(['Idea: a garden bench', 'Buy milk', 'Lunch with Ana', 'Call the dentist']);
    await accessible(page);
    await screenshot(page, 'inbox');
    expect(items.idea.due_at).toBeNull();
  }, 90_000);

  it('completes, archives, moves and re-dates in place with Undo, and deletes with a grace period', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { items, work } = await seed(userId);
    await page.goto('/');
    await page.evaluate('window.stillHere = true');

    // Done: the row leaves Today for "Done today"; Undo brings it back.
    await page.getByRole('button', { name: 'Mark “Call the dentist” done' }).click();
    await expect.poll(() => rowTitles(page, 'overdue')).toEqual(['Send the report']);
    expect(await page.locator('#done-today > summary').textContent()).toBe('Done today 1');
    expect(await page.getByRole('status').filter({ hasText: 'Marked “Call the dentist” done.' }).isVisible()).toBe(true);
    await screenshot(page, 'today-undo-toast');
    await page.locator('[data-toast]').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rowTitles(page, 'overdue')).toEqual(['Send the report', 'Call the dentist']);
    expect((await t.services.items.get(userId, items.dentist.id)).is_completed).toBe(false);

    // Archive: no confirm() (a dialog would fail the test); Undo unarchives.
    page.on('dialog', (dialog) => {
      throw new Error(`unexpected dialog: ${dialog.message()}`);
    });
    await page.getByLabel('More actions for “Lunch with Ana”').click();
    await page
      .locator('#item-' + items.lunch.id)
      .getByRole('button', { name: 'Archive' })
      .click();
    await expect.poll(() => rowTitles(page, 'due-today')).toEqual(['Prepare slides']);
    expect((await t.services.items.get(userId, items.lunch.id)).status).toBe('archived');
    await page.locator('[data-toast]').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rowTitles(page, 'due-today')).toEqual(['Lunch with Ana', 'Prepare slides']);

    // Move to a project, then Undo moves it back.
    await page.getByLabel('More actions for “Call the dentist”').click();
    const dentist = page.locator('#item-' + items.dentist.id);
    await dentist.getByLabel('Project').selectOption({ label: 'Work' });
    await dentist.getByRole('button', { name: 'Move' }).click();
    await expect.poll(async () => (await t.services.items.get(userId, items.dentist.id)).project_id).toBe(work.id);
    await expect.poll(() => page.locator(`#item-${items.dentist.id} .badge`).textContent()).toBe('Work');
    await page.locator('[data-toast]').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await t.services.items.get(userId, items.dentist.id)).project_id).toBe(items.dentist.project_id);

    // A date: tomorrow takes it off Today; Undo puts the old date back.
    await page.getByLabel('More actions for “Send the report”').click();
    const report = page.locator('#item-' + items.report.id);
    await report.getByLabel('Due date').fill('2026-11-27');
    await report.getByLabel('Due date').press('Enter');
    await expect.poll(() => rowTitles(page, 'overdue')).toEqual(['Call the dentist']);
    expect((await t.services.items.get(userId, items.report.id)).due_at).toBe('2026-11-27T16:00:00.000Z');
    await page.locator('[data-toast]').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rowTitles(page, 'overdue')).toEqual(['Send the report', 'Call the dentist']);
    expect((await t.services.items.get(userId, items.report.id)).due_at).toBe('2026-11-24T16:00:00.000Z');
    expect(await page.evaluate('window.stillHere')).toBe(true);

    // Delete: no confirm() (issue 47), the row goes at once with Undo, and the delete is sent when the toast goes.
    await page.getByLabel('More actions for “Prepare slides”').click();
    await page
      .locator('#item-' + items.slides.id)
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => rowTitles(page, 'due-today')).toEqual(['Lunch with Ana']);
    await expect
      .poll(
        () =>
          t.services.items.get(userId, items.slides.id).then(
            () => 'there',
            () => 'gone',
          ),
        { timeout: 20_000 },
      )
      .toBe('gone');
    expect(await page.evaluate('window.stillHere')).toBe(true);
    await accessible(page);
  }, 90_000);

  it('works as plain forms without JavaScript', async () => {
    const { page, email, userId } = await t.signedUp(DESKTOP);
    const { items } = await seed(userId);
    const plain = await t.signedInPage(email, NO_SCRIPT);
    expect(plain.url()).toBe(`${t.baseUrl}/`);
    await plain.getByRole('button', { name: 'Mark “Call the dentist” done' }).click();
    await plain.waitForURL(`${t.baseUrl}/#item-${items.dentist.id}`);
    expect(await rowTitles(plain, 'overdue')).toEqual(['Send the report']);
    // Without the script a row has no ⋯ menu (decision 0077): its title leads to the item's page, which has them all.
    expect(await plain.locator('#item-' + items.report.id + ' details.more').isVisible()).toBe(false);
    await plain.getByRole('link', { name: 'Send the report' }).click();
    await plain.waitForURL(`${t.baseUrl}/inbox/items/${items.report.id}`);
    await plain.locator('details#edit > summary').click();
    await plain.getByLabel('Due date').fill('2026-11-30');
    await plain.getByRole('button', { name: 'Save', exact: true }).click();
    await plain.waitForURL(`${t.baseUrl}/inbox/items/${items.report.id}?done=saved`);
    expect((await t.services.items.get(userId, items.report.id)).due_at).toBe('2026-11-30T16:00:00.000Z');
    await plain.getByRole('button', { name: 'Archive' }).click();
    await expect.poll(async () => (await t.services.items.get(userId, items.report.id)).status).toBe('archived');
    await plain.context().close();
    await page.close();
  }, 60_000);

  it('moves through the list with j/k, completes with x, moves with #, opens with e; c captures from any page', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { items } = await seed(userId);
    await page.goto('/');
    await page.keyboard.press('j');
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).toBe(`item-${items.report.id}`);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).toBe(`item-${items.dentist.id}`);
    await page.keyboard.press('x');
    await expect.poll(async () => (await t.services.items.get(userId, items.dentist.id)).is_completed).toBe(true);
    await page.keyboard.press('j');
    await page.keyboard.press('#');
    await expect.poll(() => page.evaluate("document.activeElement && document.activeElement.getAttribute('name')")).toBe('project_id');
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('e');
    await page.waitForURL(/\/inbox\/items\/.*#edit$/);
    expect(await page.locator('details#edit').getAttribute('open')).toBe('');
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('c');
    await page.waitForURL(`${t.baseUrl}/#capture`);
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).toBe('capture-text');
    // The shortcuts sheet lists them, g i included.
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const line of ['Next / previous item', 'Mark the item done', 'Open the item to edit it', 'Move the item to a project', 'Go to the Inbox'])
      expect(await sheet.textContent()).toContain(line);
    await screenshot(page, 'shortcuts');
    // Three Tab stops a row: done, title, more.
    await page.keyboard.press('Escape');
    await page.evaluate("document.querySelectorAll('details.more').forEach((d) => d.removeAttribute('open'))");
    const stops = await page
      .locator(`#item-${items.report.id} :is(a, button, summary, input, select):not([tabindex="-1"])`)
      .evaluateAll((els) => els.filter((e) => e.checkVisibility()).map((e) => e.tagName));
    expect(stops).toEqual(['BUTTON', 'A', 'SUMMARY']);
  }, 60_000);

  it('leaves the user where they went while an action’s answer is on its way: the next row’s ⋯ menu stays open and focused, its choice kept', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const { items, work } = await seed(userId);
    await page.goto('/');
    const focused = (attribute: string) => page.evaluate(`document.activeElement && document.activeElement.getAttribute('${attribute}')`);
    // The server does the toggle at once; its answer reaches the page only when released.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/toggle', async (route) => {
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await page.keyboard.press('j');
    await expect.poll(() => focused('id')).toBe(`item-${items.report.id}`);
    await page.keyboard.press('x');
    await expect.poll(async () => (await t.services.items.get(userId, items.report.id)).is_completed).toBe(true);
    await page.keyboard.press('j');
    await page.keyboard.press('#');
    await expect.poll(() => focused('id')).toBe(`move-${items.dentist.id}`);
    await page.locator(`#move-${items.dentist.id}`).selectOption(work.id);
    release();
    await expect.poll(() => page.locator('[data-toast]').textContent()).toContain('Marked “Send the report” done.');
    // The lists are the server's new copy: the report is done…
    expect(await page.locator(`#item-${items.report.id} button.check`).getAttribute('aria-pressed')).toBe('true');
    // …and the dentist's menu is still open, focused, with the project the user chose.
    expect(await focused('id')).toBe(`move-${items.dentist.id}`);
    expect(await page.locator(`#item-${items.dentist.id} details.more`).getAttribute('open')).toBe('');
    expect(await page.locator(`#move-${items.dentist.id}`).inputValue()).toBe(work.id);
    await page.unroute('**/toggle');
    await page.close();
  }, 60_000);

  // One test a width: each runs axe 18 times (9 pages, light and dark), which on a loaded machine took most of two minutes for both.
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)(
    'is axe clean on every page at %s width, light and dark, and photographs each page',
    async (_name, viewport) => {
      const { page, userId } = await t.signedUp(viewport);
      const { items, work } = await seed(userId);
      await t.services.subtasks.add(await userOf(userId), items.idea.id, 'Measure the corner');
      const pages: [string, string][] = [
        ['/', 'today'],
        ['/upcoming', 'upcoming'],
        ['/inbox', 'inbox-subtasks'],
        ['/items?show=all', 'all-items'],
        ['/projects', 'projects'],
        [`/projects/${work.id}`, 'project'],
        [`/inbox/items/${items.idea.id}`, 'item-subtasks'],
        ['/account', 'account'],
        ['/settings/keys', 'settings'],
      ];
      for (const [path, name] of pages) {
        await page.goto(path);
        await accessible(page);
        // Photographed once, at both widths (screenshot() sets each and returns to desktop).
        if (viewport === DESKTOP) await screenshot(page, name);
      }
    },
    120_000,
  );

  it('keeps captures made offline and saves each exactly once when the connection is back', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await page.goto('/inbox');
    // The service worker takes over, and keeps the page it serves for offline use.
    await expect.poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), { timeout: 10_000 }).toBe(true);
    await page.reload();
    await expect.poll(() => page.evaluate("caches.open('cin-pages').then((c) => c.match('/inbox')).then((r) => r !== undefined)")).toBe(true);
    await page.context().setOffline(true);
    // Offline, the Inbox still opens (from the copy), with its capture box.
    await page.reload();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Inbox');
    const box = page.getByLabel('Capture a note or todo');
    for (const text of ['Offline one', 'Offline two', 'Offline three']) {
      await box.fill(text);
      await box.press('Enter');
      await expect.poll(() => box.inputValue()).toBe('');
    }
    await expect.poll(() => page.locator('[data-offline-queue]').textContent()).toContain('3 waiting');
    expect((await t.services.items.list(userId, {})).items).toEqual([]);
    await screenshot(page, 'capture-offline');
    await page.context().setOffline(false);
    await expect
      .poll(async () => (await t.services.items.list(userId, {})).items.map((i) => i.title).sort(), { timeout: 10_000 })
      .toEqual(['Offline one', 'Offline three', 'Offline two']);
    await expect.poll(() => page.locator('[data-offline-queue]').isHidden()).toBe(true);
    await expect.poll(() => page.locator('.item .title').allTextContents()).toEqual(['Offline three', 'Offline two', 'Offline one']);
    // A reload replays nothing more: the queue is empty, and a replayed id would be the same item anyway.
    await page.reload();
    expect((await t.services.items.list(userId, {})).items).toHaveLength(3);
  }, 60_000);

  it('on a phone: the list comes first, six rows above the fold, capture opens on focus and Return makes a new line', async () => {
    const { email, userId } = await t.signedUp(DESKTOP).then(async (s) => {
      await s.page.close();
      return s;
    });
    const { user } = await seed(userId);
    for (const n of [1, 2, 3, 4]) await add(user, `Overdue chore ${n}`, { due_at: `2026-11-2${n}T09:00:00.000Z` });
    const page = await t.signedInPage(email, TOUCH_PHONE);
    expect(page.url()).toBe(`${t.baseUrl}/`);
    const visible = await page
      .locator('li.item')
      .evaluateAll((rows, height) => rows.filter((r) => r.getBoundingClientRect().bottom <= height).length, PHONE.height);
    expect(visible).toBeGreaterThanOrEqual(6);
    const box = page.getByLabel('Capture a note or todo');
    expect((await box.boundingBox())!.height).toBeLessThan(50);
    expect(await page.getByRole('button', { name: 'Capture', exact: true }).isVisible()).toBe(false);
    expect(await page.getByLabel('Tag', { exact: true }).isVisible()).toBe(false);
    await accessible(page);
    await page.screenshot({ path: 'docs/screenshots/today-phone-fold.png' });
    await box.tap();
    expect(await box.getAttribute('enterkeyhint')).toBe('enter');
    await box.pressSequentially('First line');
    await box.press('Enter');
    await box.pressSequentially('second line');
    expect(await box.inputValue()).toBe('First line\nsecond line');
    expect(await page.getByRole('button', { name: 'Capture', exact: true }).isVisible()).toBe(true);
    await page.screenshot({ path: 'docs/screenshots/capture-open-phone.png' });
    await page.getByRole('button', { name: 'Capture', exact: true }).tap();
    await expect.poll(() => page.locator('.captured').textContent()).toContain('Captured “First line” in Inbox.');
    // Touch targets: the done circle and the more button are at least 44 px.
    const check = await page.locator('li.item .check').first().boundingBox();
    expect(check!.height).toBeGreaterThanOrEqual(44);
    await page.context().close();
  }, 90_000);
});
