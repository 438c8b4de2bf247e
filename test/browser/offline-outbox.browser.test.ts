import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';
import { sessionUserOf, useBrowserApp } from './browser-app.js';
import { DESKTOP, screenshot } from './chromium.js';

/*
 * Issue 47 items 3 and 4, reproduced as found: ticking, archiving or moving an item offline fell
 * back to a form post and landed on the browser's "No internet" page, losing the change; project
 * and item pages showed the browser's error; offline captures were only a count, vanished into
 * another project on reconnect with no notice, and "tomorrow" was read at sync time. The server's
 * clock is the real time here, so the browser's clock (the time an offline change is made) agrees.
 */
describe.skipIf(lacking(CHROMIUM))('the offline outbox in chromium', () => {
  const t = useBrowserApp({ setup: async (app) => app.clock.set(new Date()) });

  const banner = (page: Page) => page.locator('.outbox-banner');
  const row = (page: Page, id: string) => page.locator(`#item-${id}`);

  /** Waits for the service worker to control the page, then loads it again so its copy is kept. */
  async function underServiceWorker(page: Page, path: string) {
    await page.goto(path);
    await expect.poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), { timeout: 10_000 }).toBe(true);
    await page.reload();
    await expect.poll(() => page.evaluate(`caches.open('cin-pages').then((c) => c.match('${path}')).then((r) => r !== undefined)`)).toBe(true);
  }

  it('queues ticks, archives and moves made offline in place, replays them once in order, and shows a conflict instead of applying it', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await sessionUserOf(t, userId);
    const home = await t.services.projects.findOrCreate(userId, 'Home');
    const rent = (await t.services.capture.capture(user, { text: 'Pay rent' })).item;
    const plants = (await t.services.capture.capture(user, { text: 'Water plants' })).item;
    const trip = (await t.services.capture.capture(user, { text: 'Plan trip' })).item;
    await underServiceWorker(page, '/inbox');
    await expect.poll(() => page.evaluate("caches.open('cin-pages').then((c) => c.match('/offline')).then((r) => r !== undefined)")).toBe(true);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    await page.context().setOffline(true);
    // A tick, then an archive of the same item: the second is made on the first's result.
    await page.getByRole('button', { name: 'Mark “Pay rent” done' }).click();
    await expect.poll(() => row(page, rent.id).getAttribute('class')).toContain('queued');
    await page.getByLabel('More actions for “Pay rent”').click();
    await row(page, rent.id).getByRole('button', { name: 'Archive' }).click();
    await page.getByLabel('More actions for “Water plants”').click();
    await row(page, plants.id).getByLabel('Project').selectOption({ label: 'Home' });
    await row(page, plants.id).getByRole('button', { name: 'Move' }).click();
    // Meanwhile another device renames the trip; the tick made offline on the old version must not apply.
    await t.services.items.patch(userId, trip.id, { title: 'Plan the trip' });
    await page.getByRole('button', { name: 'Mark “Plan trip” done' }).click();

    await expect.poll(() => banner(page).textContent()).toContain('4 changes made offline waiting to sync');
    expect(await row(page, rent.id).locator('.queued-note').textContent()).toBe('Tick, Archive waiting to sync');
    expect(await row(page, plants.id).locator('.queued-note').textContent()).toBe('Move waiting to sync');
    expect(
      await row(page, rent.id)
        .getByRole('button', { name: /Pay rent/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    // Nothing reached the server, and the page never left.
    expect(await t.services.items.get(userId, rent.id)).toMatchObject({ is_completed: false, status: 'todo' });
    expect(navigations).toEqual([]);
    await screenshot(page, 'offline-actions-waiting');

    await page.context().setOffline(false);
    await expect.poll(() => banner(page).isHidden(), { timeout: 15_000 }).toBe(true);
    expect(await t.services.items.get(userId, rent.id)).toMatchObject({ is_completed: true, status: 'archived' });
    expect((await t.services.items.get(userId, plants.id)).project_id).toBe(home.id);
    expect(await t.services.items.get(userId, trip.id)).toMatchObject({ title: 'Plan the trip', is_completed: false });
    await expect
      .poll(() => page.locator('.outbox-notes .conflict').textContent())
      .toBe('Your tick of “Plan trip”, made offline, was not applied: the item was changed meanwhile.');
    expect(navigations).toEqual([]);
    await screenshot(page, 'offline-actions-synced');

    // Replayed once: a reload sends nothing again.
    const updated = (await t.services.items.get(userId, rent.id)).updated_at;
    await page.reload();
    await expect
      .poll(() =>
        page.evaluate(
          "new Promise((r) => { const o = indexedDB.open('cin-offline', 2); o.onsuccess = () => o.result.transaction('actions').objectStore('actions').count().onsuccess = (e) => r(e.target.result); })",
        ),
      )
      .toBe(0);
    expect((await t.services.items.get(userId, rent.id)).updated_at).toBe(updated);
  }, 120_000);

  it('opens pages opened before from their copies, read-only, and the app’s offline page for the others', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await sessionUserOf(t, userId);
    const garden = await t.services.projects.findOrCreate(userId, 'Garden');
    const seeds = (await t.services.capture.capture(user, { text: 'Buy seeds', project_id: garden.id })).item;
    const other = (await t.services.capture.capture(user, { text: 'Never opened' })).item;
    await underServiceWorker(page, '/inbox');
    await page.goto(`/projects/${garden.id}`);
    await page.goto(`/inbox/items/${seeds.id}`);
    await expect.poll(() => page.evaluate(`caches.open('cin-pages').then((c) => c.match('/inbox/items/${seeds.id}')).then((r) => r !== undefined)`)).toBe(true);

    await page.context().setOffline(true);
    await page.goto(`/projects/${garden.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Garden');
    await page.goto(`/inbox/items/${seeds.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Buy seeds');
    // Read-only: a plain form (archive on the item's page) is not sent, and says why.
    await page.locator('#item-manage').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => page.locator('.outbox-notes .read-only').textContent()).toContain('You are offline: this page is read-only');
    expect(page.url()).toBe(`${t.baseUrl}/inbox/items/${seeds.id}`);
    expect((await t.services.items.get(userId, seeds.id)).status).toBe('todo');

    await page.goto(`/inbox/items/${other.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You are offline');
    // The app's page, with the signed-in navigation, not the browser's error.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Today' }).count()).toBe(1);
    await screenshot(page, 'offline-page');
    await page.context().setOffline(false);
  }, 120_000);

  it('shows captures made offline as rows, reads their dates when typed, and says where each went with Undo', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await underServiceWorker(page, '/inbox');
    const typedOn = new Date();
    await page.context().setOffline(true);
    const box = page.getByLabel('Capture a note or todo');
    await box.fill('Call mum tomorrow');
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
    await box.fill('Buy stamps');
    await box.press('Enter');
    await expect.poll(() => page.locator('.queued-captures > li .title').allTextContents()).toEqual(['Call mum tomorrow', 'Buy stamps']);
    expect(await page.locator('.queued-captures > li .meta').first().textContent()).toContain('Waiting to sync');
    await expect.poll(() => banner(page).textContent()).toContain('2 changes made offline waiting to sync');
    await screenshot(page, 'offline-captures-waiting');

    // The connection comes back a day later: "tomorrow" is still the day after it was typed.
    t.clock.set(new Date(typedOn.getTime() + 24 * 3600 * 1000));
    await page.context().setOffline(false);
    await expect.poll(async () => (await t.services.items.list(userId, {})).items.length, { timeout: 15_000 }).toBe(2);
    const items = (await t.services.items.list(userId, {})).items;
    const mum = items.find((i) => i.title === 'Call mum')!;
    const dayAfter = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(typedOn.getTime() + 24 * 3600 * 1000));
    expect(mum.all_day).toBe(true);
    expect(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(mum.due_at!))).toBe(dayAfter);
    const notes = page.locator('.outbox-notes .synced');
    await expect.poll(() => notes.count()).toBe(2);
    expect(await notes.first().textContent()).toMatch(/^Saved “Call mum” in Inbox, due today \(\w{3} \d{1,2} \w{3}\)\. Undo$/);
    expect(await notes.nth(1).textContent()).toBe('Saved “Buy stamps” in Inbox. Undo');
    expect(await page.locator('.queued-captures > li').count()).toBe(0);
    // Two defects seen in this screenshot (issue 47): the sidebar still said "Inbox 0" beside the two
    // synced Inbox rows (the sync's own live echoes are skipped, and only the lists were swapped), and
    // the row said "today" where its note said "due Mon 30 Nov": the note now reads the date as the row.
    const inbox = await t.services.projects.inboxId(userId);
    await expect.poll(() => page.locator(`#sidebar a[href="/projects/${inbox}"] .count`).textContent()).toBe('2');
    expect(await page.locator('#lists li.item').count()).toBe(2);
    const rowDue = await page.locator(`#item-${mum.id} .due`).textContent();
    expect(rowDue).toBe('today');
    expect(await notes.first().textContent()).toContain(`due ${rowDue} (`);
    await screenshot(page, 'offline-captures-synced');

    await notes.nth(1).getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await t.services.items.list(userId, {})).items.map((i) => i.title)).toEqual(['Call mum']);
    await expect.poll(() => notes.nth(1).textContent()).toContain('Undone');
    t.clock.set(new Date());
  }, 120_000);
});
