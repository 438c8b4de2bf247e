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
 * The daily-inbox flows in chromium, each at desktop and at phone width: search that agrees with
 * the API, the organizer's capture and Undo, editing an item, projects. Every page is checked
 * with axe (light and dark) and photographed into docs/screenshots/.
 */
describe.skipIf(lacking(CHROMIUM))('the inbox in chromium', () => {
  const t = useBrowserApp({ at: THURSDAY });

  const apiSearch = async (token: string, q: string) => {
    const res = await fetch(`${t.baseUrl}/api/v1/items/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { items: { title: string }[] }).items.map((i) => i.title);
  };
  const titles = (page: Page) => page.locator('.items .item .title').allTextContents();
  const capture = async (page: Page, text: string) => {
    await page.getByLabel('Capture a note or todo').fill(text);
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.waitForLoadState('load');
  };
  const openEdit = async (page: Page) => {
    if ((await page.locator('details#edit').getAttribute('open')) === null) await page.locator('details#edit > summary').click();
  };
  const accessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

  for (const [name, viewport] of WIDTHS) {
    it(`searches like the API, filters by a clicked tag, shows the Pro note once and the shortcuts on ? (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/items');
      const { token } = await t.services.keys.mint(userId, 'parity');
      await capture(page, 'Über café');
      await expect.poll(() => page.getByText('With Pro, the organizer files captures').isVisible()).toBe(true);
      if (name === 'desktop') await screenshot(page, 'inbox-pro-note');
      await capture(page, 'Buy milk');
      expect(await page.getByText('With Pro').count()).toBe(0);
      const milk = await t.services.search.search(userId, { q: 'milk' });
      await t.services.items.patch(userId, milk.items[0]!.id, { tags: ['home'] });

      for (const [q, expected] of [
        ['über', ['Über café']],
        ['ilk', []],
        ['MILK', ['Buy milk']],
      ] as const) {
        await page.goto(`/items?q=${encodeURIComponent(q)}`);
        expect(await titles(page)).toEqual(expected);
        expect(await apiSearch(token, q)).toEqual(expected);
      }
      await page.goto('/items');
      await page.locator('.item .meta').getByRole('link', { name: '@home' }).click();
      await expect.poll(() => page.url()).toContain('tag=home');
      expect(await titles(page)).toEqual(['Buy milk']);
      await accessible(page);

      // Marking done takes the row off the open list without reloading the page.
      await page.goto('/items');
      await page.evaluate('window.stillHere = true');
      await page.getByRole('button', { name: 'Mark “Buy milk” done' }).click();
      await expect.poll(() => titles(page)).toEqual(['Über café']);
      expect(await page.evaluate('window.stillHere')).toBe(true);
      expect((await t.services.items.get(userId, milk.items[0]!.id)).is_completed).toBe(true);

      await page.goto('/');
      await page.keyboard.press('Escape');
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('?');
      await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible()).toBe(true);
      if (name === 'desktop') await screenshot(page, 'shortcuts');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(false);
    }, 60_000);

    it(`reads @tag and #tag in the search box as the tag, finds a Japanese word mid-run, and says an emoji-only search has no words (${name})`, async () => {
      const { page } = await t.signedUp(viewport);
      await page.goto('/items');
      await capture(page, 'Pack the tent @camping');
      await capture(page, 'Camping stove manual');
      await capture(page, '会議の準備');
      const search = async (q: string) => {
        await page.getByRole('searchbox', { name: 'Search' }).fill(q);
        await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
        await page.waitForLoadState('load');
        await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(q);
      };

      await search('@camping');
      expect(await titles(page)).toEqual(['Pack the tent']);
      // #camping, as the pages once showed tags, finds the tag too, and words still narrow it.
      await search('#camping tent');
      expect(await titles(page)).toEqual(['Pack the tent']);
      await search('@camping stove');
      expect(await titles(page)).toEqual([]);
      await search('@camping @gear tent');
      expect(await titles(page)).toEqual(['Pack the tent']);
      expect(await page.getByRole('status').filter({ hasText: 'One tag at a time' }).textContent()).toContain('showing items tagged @camping, not @gear');
      // Without @ or #, camping is a word of titles and notes (the tag is not in the title).
      await search('camping');
      expect(await titles(page)).toEqual(['Camping stove manual']);
      await search('準備');
      expect(await titles(page)).toEqual(['会議の準備']);
      expect(await page.locator('#search-help').textContent()).toContain('@home');
      if (name === 'desktop') {
        await page.locator('.filter-more > summary').click();
        await expect.poll(() => page.locator('#search-help').isVisible()).toBe(true);
        await accessible(page);
        await screenshot(page, 'search-cjk-help');
      }

      await search('🎉');
      expect(await page.locator('.items').count()).toBe(0);
      const said = page.locator('.no-words');
      expect(await said.textContent()).toContain('“🎉” has no letters or digits, so there are no words to search for.');
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'search-no-words');
    }, 60_000);

    it(`organizes a Pro capture, shows what it decided, and Undo puts back what was typed (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport, 'pro');
      await page.goto('/inbox');
      expect(await page.getByLabel('Organize').isChecked()).toBe(true);
      await capture(page, 'Buy milk tomorrow 5pm');
      const notice = page.locator('.organized');
      await expect.poll(() => notice.textContent()).toContain('due Fri 27 Nov, 17:00 · todo · titled “Buy milk”');
      expect(await titles(page)).toEqual(['Buy milk']);
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'inbox-organized');
      await notice.getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => titles(page)).toEqual(['Buy milk tomorrow 5pm']);
      const [item] = (await t.services.items.list(userId, { limit: 5 })).items;
      expect(item!.due_at).toBeNull();
      // The form leaves project and type to the organizer: it files by content.
      const work = await t.services.projects.findOrCreate(userId, 'Work');
      await page.reload();
      await capture(page, 'idea: prepare slides for work');
      await expect.poll(() => notice.textContent()).toContain('Filed in Work');
      const [filed] = (await t.services.items.list(userId, { limit: 1 })).items;
      expect(filed).toMatchObject({ title: 'idea: prepare slides for work', project_id: work.id, type: 'note' });
      // Unticked, it stays unticked (on a phone the options show once the box has the focus).
      await page.getByLabel('Capture a note or todo').focus();
      await page.getByLabel('Organize').uncheck();
      await capture(page, 'Call Sam friday');
      expect(await page.getByLabel('Organize').isChecked()).toBe(false);
      // Without the organizer, quick add still reads the date (every plan, no AI).
      expect((await titles(page))[0]).toBe('Call Sam');
      expect((await t.services.items.list(userId, { limit: 1 })).items[0]).toMatchObject({
        title: 'Call Sam',
        due_at: '2026-11-26T23:00:00.000Z',
        all_day: true,
      });
    }, 60_000);

    it(`shows what quick add understands while typing and files a Free capture by it (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      const work = await t.services.projects.findOrCreate(userId, 'Work');
      await page.goto('/items');
      const box = page.getByLabel('Capture a note or todo');
      await box.pressSequentially('Call Sam tomorrow 5pm #Work @calls');
      const chips = page.locator('[data-quick-add] [data-kind]');
      // The first reading loads the date parser on the server: give it longer than the default second.
      await expect
        .poll(() => chips.evaluateAll((els) => els.map((e) => [e.getAttribute('data-kind'), e.textContent])), { timeout: 10_000 })
        .toEqual([
          ['date', 'Due tomorrow 5pm · Fri 27 Nov, 17:00'],
          ['project', 'Project #Work'],
          ['tag', 'Tag @calls'],
        ]);
      // The text is as typed; nothing is saved yet.
      expect(await box.inputValue()).toBe('Call Sam tomorrow 5pm #Work @calls');
      expect((await t.services.items.list(userId, { limit: 5 })).items).toEqual([]);
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'capture-quick-add');
      await box.press('Enter');
      await expect.poll(() => titles(page)).toEqual(['Call Sam']);
      const [item] = (await t.services.items.list(userId, { limit: 5 })).items;
      expect(item).toMatchObject({ project_id: work.id, tags: ['calls'], due_at: '2026-11-27T16:00:00.000Z', type: 'todo' });
      // A failed preview request loses nothing: the chips go, the text stays.
      await page.route('**/inbox/parse', (route) => route.fulfill({ status: 500, body: 'no' }));
      await box.pressSequentially('Buy milk @home');
      await expect.poll(() => chips.count(), { timeout: 5_000 }).toBe(0);
      expect(await box.inputValue()).toBe('Buy milk @home');
    }, 60_000);

    it(`edits an item: fields, tags from suggestions, Markdown notes, subtasks, a stale edit, archive and delete (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/inbox');
      await capture(page, 'Plan the trip');
      const trip = (await t.services.search.search(userId, { q: 'trip' })).items[0]!;
      await t.services.items.patch(userId, trip.id, { tags: ['travel'] });
      await page.goto('/inbox');
      await page.getByRole('link', { name: 'Plan the trip' }).click();
      await page.waitForURL(`${t.baseUrl}/inbox/items/${trip.id}`);
      // The item page is a view; Edit opens the form in place.
      await openEdit(page);
      await page.getByLabel('Title').fill('Plan the Lisbon trip');
      await page.getByLabel('Notes').fill('**Book** flights <script>window.pwned=1</script> [x](javascript:alert(1)) and see https://example.org');
      await page.getByLabel('Due date').fill('2026-11-27');
      await page.getByLabel('Due time').fill('17:00');
      await page.getByLabel('Add tags').fill('holiday');
      expect(await page.locator('#tag-suggestions option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['travel']);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved.');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Plan the Lisbon trip');
      expect(await page.locator('.notes strong').textContent()).toBe('Book');
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(await page.locator('.notes a').count()).toBe(1);
      expect(await page.locator('.notes a').getAttribute('rel')).toBe('noopener noreferrer nofollow');
      const saved = await t.services.items.get(userId, trip.id);
      expect(saved).toMatchObject({ due_at: '2026-11-27T16:00:00.000Z', tags: ['holiday', 'travel'] });

      await page.getByLabel('Add subtask').fill('Book flights');
      await page.getByRole('button', { name: 'Add subtask' }).click();
      await expect.poll(() => page.locator('.checklist a').allTextContents()).toEqual(['Book flights']);
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'item');

      // Changed elsewhere while the form is open: saving says so and keeps what was typed.
      await t.services.items.patch(userId, trip.id, { title: 'Renamed on the phone' });
      await openEdit(page);
      await page.getByLabel('Title').fill('My laptop title');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('This item changed after you opened it');
      expect(await page.getByLabel('Title').inputValue()).toBe('My laptop title');
      expect((await t.services.items.get(userId, trip.id)).title).toBe('Renamed on the phone');
      if (name === 'desktop') await screenshot(page, 'item-stale');
      await page.getByRole('button', { name: 'Save my version anyway' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('My laptop title');

      // Over the limit: the message next to the field.
      await openEdit(page);
      await page.getByLabel('Title').evaluate((input) => input.removeAttribute('maxlength'));
      await page.getByLabel('Title').fill('x'.repeat(501));
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.locator('#title-error').textContent()).toBe('A title has at most 500 characters; this one has 501.');
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'item-invalid');

      // Archiving can be undone (Unarchive): it does not ask.
      await page.locator('section[aria-labelledby="manage-heading"]').getByRole('button', { name: 'Archive' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Unarchive' }).isVisible()).toBe(true);
      // Delete waits out a grace period with Undo (issue 47 item 10), then goes to Today.
      await page.locator('section[aria-labelledby="manage-heading"]').getByRole('button', { name: 'Delete' }).click();
      await page.locator('[data-toast]').getByRole('button', { name: 'Undo' }).waitFor();
      await page.waitForURL(`${t.baseUrl}/`, { timeout: 20_000 });
      await expect(t.services.items.get(userId, trip.id)).rejects.toThrow('not found');
    }, 90_000);

    it(`creates, opens, renames and deletes a project; its items go to the Inbox (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.getByRole('link', { name: 'Projects' }).first().click();
      await page.getByLabel('New project').fill('Garden');
      await page.getByRole('button', { name: 'Create project' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Garden');
      await capture(page, 'Plant tulips');
      expect(await titles(page)).toEqual(['Plant tulips']);
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'project');
      await page.getByText('Rename or delete this project').click();
      await page.getByLabel('Name', { exact: true }).fill('Vegetable garden');
      await page.getByRole('button', { name: 'Rename' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Vegetable garden');
      await page.getByText('Rename or delete this project').click();
      await page.getByRole('button', { name: 'Delete project' }).click();
      expect(await page.locator('.confirm-step p').textContent()).toBe('Delete the project “Vegetable garden”? Its 1 item move to the Inbox.');
      await page.getByRole('button', { name: 'Yes, delete project' }).click();
      await page.waitForURL(`${t.baseUrl}/projects?done=deleted`);
      expect(await page.locator('.project-list .title').allTextContents()).toEqual(['Inbox']);
      await accessible(page);
      if (name === 'desktop') await screenshot(page, 'projects');
      const inbox = await t.services.projects.requireInbox(t.services.db, userId);
      expect((await t.services.items.list(userId, { limit: 5 })).items[0]!.project_id).toBe(inbox.id);
    }, 60_000);
  }
});
