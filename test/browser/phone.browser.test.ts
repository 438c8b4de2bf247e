import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';
import { seriousViolations } from './axe.js';
import { sessionUserOf, useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, PHONE, TOUCH_PHONE } from './chromium.js';

/*
 * Issue 47 item 9 (the phone is thumb-first) and the web part of all-day dates (item 6), as a user
 * meets them. The clock is Thursday 26 November 2026, 11:00 in Berlin (the user's and the
 * browser's zone): tomorrow is Friday 27 November, next week Monday 30 November.
 */
describe.skipIf(lacking(CHROMIUM))('the phone, thumb-first, and all-day dates in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  /** A signed-up user in Berlin, and a page of their own in a phone with a touch screen (or at desktop width). */
  async function userWith(kind: 'phone' | 'desktop') {
    const signed = await t.signedUp(DESKTOP);
    await t.services.users.updateMe(signed.userId, { timezone: 'Europe/Berlin' });
    const user = await sessionUserOf(t, signed.userId);
    if (kind === 'desktop') return { page: signed.page, user, userId: signed.userId };
    await signed.page.close();
    const page = await t.signedInPage(signed.email, TOUCH_PHONE);
    expect(page.url()).toBe(`${t.baseUrl}/`);
    return { page, user, userId: signed.userId };
  }

  const toast = (page: Page) => page.locator('[data-toast]');
  const size = async (locator: Locator) => {
    const box = (await locator.boundingBox())!;
    return [Math.round(box.width), Math.round(box.height)];
  };
  const atLeast44 = async (locator: Locator) => {
    const [w, h] = await size(locator);
    expect(w, `width of ${locator.toString()}`).toBeGreaterThanOrEqual(44);
    expect(h, `height of ${locator.toString()}`).toBeGreaterThanOrEqual(44);
  };
  const shoot = async (page: Page, name: string) => {
    mkdirSync('docs/screenshots', { recursive: true });
    await page.screenshot({ path: `docs/screenshots/${name}.png` });
  };
  /** A horizontal swipe of a row with a touch pointer, as a finger makes it (pointer events, dispatched). */
  async function swipe(row: Locator, dx: number): Promise<void> {
    await row.evaluate((element, distance) => {
      const box = element.getBoundingClientRect();
      const y = box.top + box.height / 2;
      const x0 = box.left + box.width / 2;
      const target = element.querySelector('.title') ?? element;
      const view = element.ownerDocument.defaultView!;
      const fire = (type: string, x: number) =>
        target.dispatchEvent(
          new view.PointerEvent(type, { pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true }),
        );
      fire('pointerdown', x0);
      for (let i = 1; i <= 6; i++) fire('pointermove', x0 + (distance * i) / 6);
      fire('pointerup', x0 + distance);
    }, dx);
  }

  it('all-day in the web app: the chip shows the day only, the item page and the row menu keep an all-day item all-day', async () => {
    const { page, user, userId } = await userWith('desktop');
    // Quick add: "tomorrow" has no time of day, so the chip shows the date, never 00:00 or 09:00.
    await page.getByLabel('Capture a note or todo').fill('Buy milk tomorrow');
    const chip = page.locator('[data-quick-add] .chip-date');
    await expect.poll(() => chip.textContent()).toBe('Due tomorrow · Fri 27 Nov · all day');
    expect(await chip.getAttribute('data-all-day')).toBe('');
    await page.getByLabel('Capture a note or todo').fill('Call Sam tomorrow 5pm');
    await expect.poll(() => chip.textContent()).toBe('Due tomorrow 5pm · Fri 27 Nov, 17:00');
    await page.getByLabel('Capture a note or todo').fill('');

    const rent = (await t.services.capture.capture(user, { text: 'Pay rent', due_at: '2026-11-27T10:00:00.000Z', all_day: true })).item;
    expect(rent).toMatchObject({ due_at: '2026-11-26T23:00:00.000Z', all_day: true });
    // The item page: the date, an empty time (= all day), the box ticked; a new date alone keeps it all-day.
    await page.goto(`/inbox/items/${rent.id}#edit`);
    expect(await page.getByLabel('Due date').inputValue()).toBe('2026-11-27');
    expect(await page.getByLabel('Due time').inputValue()).toBe('');
    expect(await page.getByLabel('All day').isChecked()).toBe(true);
    await page.getByLabel('Due date').fill('2026-11-30');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await t.services.items.get(userId, rent.id)).due_at).toBe('2026-11-29T23:00:00.000Z');
    expect((await t.services.items.get(userId, rent.id)).all_day).toBe(true);

    // The row menu: a picked date and a quick date both keep it all-day.
    await page.goto('/upcoming');
    await page.getByLabel('More actions for “Pay rent”').click();
    const row = page.locator(`#item-${rent.id}`);
    await row.getByLabel('Due date').fill('2026-12-01');
    await row.getByRole('button', { name: 'Set date' }).click();
    await expect.poll(async () => (await t.services.items.get(userId, rent.id)).due_at).toBe('2026-11-30T23:00:00.000Z');
    expect((await t.services.items.get(userId, rent.id)).all_day).toBe(true);
    await expect.poll(() => page.locator(`#item-${rent.id} .due`).first().textContent()).not.toMatch(/\d:\d\d|AM|PM/);
    // The answer's row keeps its menu open where it was open.
    if ((await page.locator(`#item-${rent.id} details.more`).getAttribute('open')) === null) await page.getByLabel('More actions for “Pay rent”').click();
    await page.locator(`#item-${rent.id}`).getByRole('button', { name: 'Tomorrow' }).click();
    await expect.poll(async () => (await t.services.items.get(userId, rent.id)).due_at).toBe('2026-11-26T23:00:00.000Z');
    expect((await t.services.items.get(userId, rent.id)).all_day).toBe(true);
  }, 90_000);

  it('on a phone: a bottom bar and a capture button at the thumb, 44 px targets, tomorrow in two taps, swipes with Undo, nothing clipped', async () => {
    const { page, user, userId } = await userWith('phone');
    const plumber = (await t.services.capture.capture(user, { text: 'Call the plumber', due_at: '2026-11-26T14:00:00.000Z' })).item;
    const report = (await t.services.capture.capture(user, { text: 'Send the report', due_at: '2026-11-26T16:00:00.000Z' })).item;
    const bins = (await t.services.capture.capture(user, { text: 'Put the bins out', due_at: '2026-11-26T17:00:00.000Z' })).item;
    const project = await t.services.projects.findOrCreate(userId, 'Garden');
    await page.goto('/');

    // The sections are in a bar at the bottom; the top navigation is not on the screen.
    const bar = page.getByRole('navigation', { name: 'Sections' });
    expect(await bar.getByRole('link').allTextContents()).toEqual(['Today', 'Upcoming', 'Inbox', 'Projects', 'More']);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const barBox = (await bar.boundingBox())!;
    expect(Math.round(barBox.y + barBox.height)).toBe(PHONE.height);
    for (const link of await bar.getByRole('link').all()) await atLeast44(link);
    const fab = page.getByRole('link', { name: 'Capture', exact: true });
    await atLeast44(fab);
    expect((await fab.boundingBox())!.y).toBeGreaterThan(PHONE.height / 2);
    // Rows: the circle and the ⋯ are 44 px.
    await atLeast44(page.getByRole('button', { name: 'Mark “Call the plumber” done' }));
    await atLeast44(page.getByLabel('More actions for “Call the plumber”'));
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'phone-today');

    // The capture button opens the capture box at the thumb, focused.
    await fab.tap();
    const box = page.getByLabel('Capture a note or todo');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('capture-text');
    expect((await box.boundingBox())!.y).toBeGreaterThan(PHONE.height / 2);
    await shoot(page, 'phone-capture');
    await page.keyboard.press('Escape');
    await expect.poll(() => fab.isVisible()).toBe(true);

    // Tomorrow in two taps: ⋯, then the quick date. A timed item keeps its time.
    let taps = 0;
    await page.getByLabel('More actions for “Call the plumber”').tap();
    taps += 1;
    const menu = page.locator(`#item-${plumber.id} .quick-dates`);
    expect(await menu.getByRole('button').allTextContents()).toEqual(['Today', 'Tomorrow', 'Next week', 'Pick']);
    for (const chip of await menu.getByRole('button').all()) await atLeast44(chip);
    expect(await menu.getByRole('button', { name: 'Next week' }).getAttribute('data-date')).toBe('2026-11-30');
    await shoot(page, 'phone-row-menu');
    expect(await seriousViolations(page)).toEqual([]);
    await menu.getByRole('button', { name: 'Tomorrow' }).tap();
    taps += 1;
    await expect.poll(async () => (await t.services.items.get(userId, plumber.id)).due_at).toBe('2026-11-27T14:00:00.000Z');
    expect(taps).toBe(2);
    await expect.poll(() => toast(page).locator('span').textContent()).toMatch(/^Moved “Call the plumber” to Fri 27 Nov, 15:00|Call the plumber/);

    // Swipe right: done, with Undo.
    await swipe(page.locator(`#item-${report.id}`), 140);
    await expect.poll(async () => (await t.services.items.get(userId, report.id)).is_completed).toBe(true);
    await toast(page).getByRole('button', { name: 'Undo' }).tap();
    await expect.poll(async () => (await t.services.items.get(userId, report.id)).is_completed).toBe(false);
    // A short swipe springs back and does nothing; a vertical one is a scroll.
    await swipe(page.locator(`#item-${report.id}`), 40);
    await swipe(page.locator(`#item-${bins.id}`), -40);
    expect((await t.services.items.get(userId, report.id)).is_completed).toBe(false);
    expect((await t.services.items.get(userId, bins.id)).due_at).toBe('2026-11-26T17:00:00.000Z');
    // Swipe left: to tomorrow, with Undo.
    await swipe(page.locator(`#item-${bins.id}`), -140);
    await expect.poll(async () => (await t.services.items.get(userId, bins.id)).due_at).toBe('2026-11-27T17:00:00.000Z');
    await toast(page).getByRole('button', { name: 'Undo' }).tap();
    await expect.poll(async () => (await t.services.items.get(userId, bins.id)).due_at).toBe('2026-11-26T17:00:00.000Z');

    // "More" opens the rest of the navigation above the bar; a tap elsewhere closes it.
    await bar.getByRole('link', { name: 'More' }).tap();
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => main.getByRole('link', { name: 'Account' }).isVisible()).toBe(true);
    await atLeast44(main.getByRole('link', { name: 'Account' }));
    await shoot(page, 'phone-more');
    await page.locator('h1').tap();
    await expect.poll(() => main.isVisible()).toBe(false);

    // Nothing is wider than the phone, on any page.
    for (const path of ['/', '/upcoming', '/inbox', '/items', '/projects', `/projects/${project.id}`, `/inbox/items/${plumber.id}`, '/account']) {
      await page.goto(path);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(PHONE.width);
    }
    // On a page without a capture box, the button leads to Today's, opened.
    await fab.tap();
    await page.waitForURL(`${t.baseUrl}/#capture`);
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('capture-text');
    await page.context().close();
  }, 120_000);

  it('at desktop width nothing moves: no bottom bar, no capture button, the top navigation as before', async () => {
    const { page } = await userWith('desktop');
    await page.goto('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Capture', exact: true }).isVisible()).toBe(false);
    expect(await page.getByLabel('Capture a note or todo').isVisible()).toBe(true);
  }, 60_000);
});
