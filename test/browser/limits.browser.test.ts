import { describe, expect, it } from 'vitest';
import { useBrowserApp, THURSDAY } from './browser-app.js';
import { DESKTOP, screenshot } from './chromium.js';
import { UNLIMITED } from '../helpers/test-app.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * Web actions count against the plan's limits like the same API calls (issue 33, point 7): a Free
 * user who spent the minute's budget through the API is refused in the web app too, and the page
 * says so with what was typed kept.
 */
describe.skipIf(lacking(CHROMIUM))('web actions against the plan limits in chromium', () => {
  const t = useBrowserApp({ app: { limits: { ...UNLIMITED, free: { perMinute: 5, perDay: 1000 } } }, at: THURSDAY });

  it('refuses web captures and actions once the API minute is spent, keeping the text', async () => {
    const { page, userId } = await t.signedUp(DESKTOP, 'free');
    const { token } = await t.services.keys.mint(userId, 'script');
    await page.goto('/inbox');
    await page.getByLabel('Capture a note or todo').fill('Counted like an API call');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await expect.poll(async () => (await t.services.items.list(userId, {})).items.length).toBe(1);
    // The rest of the minute goes to the API.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await t.api('GET', 'me', undefined, token)).status);
    expect(statuses).toContain(429);

    await page.getByLabel('Capture a note or todo').fill('One more thing\nwith a second line');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await expect.poll(() => page.locator('#capture-error').textContent()).toContain('per-minute limit of the free plan');
    expect(await page.getByLabel('Capture a note or todo').inputValue()).toBe('One more thing\nwith a second line');
    expect((await t.services.items.list(userId, {})).items).toHaveLength(1);
    await screenshot(page, 'capture-over-limit');

    // Marking done is refused the same way: the in-place action falls back to the page that says so.
    await page.getByRole('button', { name: 'Mark “Counted like an API call” done' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Too many requests');
    expect((await t.services.items.list(userId, {})).items[0]!.is_completed).toBe(false);

    // A new minute, a new budget.
    t.clock.advance(61_000);
    await page.goto('/inbox');
    await page.getByRole('button', { name: 'Mark “Counted like an API call” done' }).click();
    await expect.poll(async () => (await t.services.items.list(userId, {})).items[0]!.is_completed).toBe(true);
  }, 60_000);

  it('counts notification settings and reminder changes too: over the minute the page says so and keeps what was typed', async () => {
    const { page, userId } = await t.signedUp(DESKTOP, 'free');
    const { token } = await t.services.keys.mint(userId, 'script');
    const user = { ...(await t.services.users.me(userId)), keyId: null };
    const { item } = await t.services.capture.capture(user, { text: 'Water the plants', due_at: '2026-11-27T08:00:00.000Z' });
    const spend = async () => {
      for (let i = 0; i < 6; i += 1) if ((await t.api('GET', 'me', undefined, token)).status === 429) return;
      throw new Error('the minute was not spent');
    };
    await page.goto('/account/notifications');
    await spend();
    await page.getByLabel('Topic URL').fill('https://ntfy.sh/over-the-limit');
    await page.getByRole('button', { name: 'Add ntfy topic' }).click();
    expect(await page.locator('.alert.error').textContent()).toContain('per-minute limit of the free plan');
    expect(await page.getByLabel('Topic URL').inputValue()).toBe('https://ntfy.sh/over-the-limit');
    expect(await t.services.channels.list(userId)).toEqual([]);

    t.clock.advance(61_000);
    await page.goto(`/inbox/items/${item.id}`);
    await page.locator('#reminder details.change > summary').click();
    await spend();
    await page.getByLabel('Remind me on').fill('2026-11-27');
    await page.getByLabel('Repeat', { exact: true }).selectOption('daily');
    await page.getByRole('button', { name: 'Save reminder and repeat' }).click();
    expect(await page.locator('#reminder .alert.error').textContent()).toContain('per-minute limit of the free plan');
    expect(await page.getByLabel('Repeat', { exact: true }).inputValue()).toBe('daily');
    expect(await t.services.items.get(userId, item.id)).toMatchObject({ recurrence: null, remind_at: null });
    t.clock.advance(61_000);
  }, 60_000);
});
