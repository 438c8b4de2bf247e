import { describe, expect, it, vi } from 'vitest';
import { seriousViolations } from './axe.js';
import { useBrowserApp, THURSDAY } from './browser-app.js';
import { screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * Contract "Brain dump" in the web app: a pasted list offers one item or the split; the split is
 * previewed (rows with their chips, editable, removable), saved as one batch, and one Undo removes
 * the whole batch.
 */
vi.setConfig({ testTimeout: 90_000 });

describe.skipIf(lacking(CHROMIUM))('brain dump in the capture box (chromium)', () => {
  const t = useBrowserApp({ at: THURSDAY });

  it('pastes a list, previews it, edits and removes rows, saves it as items and undoes the whole batch', async () => {
    const { page, userId } = await t.signedUp();
    const stored = async () => (await t.services.items.list(userId, { limit: 100 })).items;
    await page.goto('/inbox');
    const box = page.getByLabel('Capture a note or todo');
    await box.fill('Groceries @shop:\n- milk tomorrow\n- [x] eggs\n- bread\ncall mom');

    // The box offers both; one item stays the default, as without the script.
    const split = page.getByRole('radio', { name: 'Split into 5 items' });
    await split.waitFor();
    expect(await page.getByRole('radio', { name: 'One item' }).isChecked()).toBe(true);
    await split.check();
    const rows = page.locator('[data-brain-dump-list] li');
    await expect.poll(() => rows.count()).toBe(5);
    expect(await rows.locator('input[type=text]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).toEqual([
      'Groceries @shop',
      'milk tomorrow',
      'eggs',
      'bread',
      'call mom',
    ]);
    // Chips: the heading's tag, the date of a row under it.
    expect(await rows.nth(0).locator('.chip').allTextContents()).toEqual(['Tag @shop']);
    expect(await rows.nth(1).locator('.chip[data-kind=date]').count()).toBe(1);
    expect(await rows.nth(1).getAttribute('data-depth')).toBe('1');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'brain-dump-preview');

    // Remove "bread", rename "call mom": the text in the box follows and the list is read again.
    await page.getByRole('button', { name: 'Remove item 4' }).click();
    await expect.poll(() => rows.count()).toBe(4);
    await rows.nth(3).locator('input[type=text]').fill('call dad');
    await rows.nth(3).locator('input[type=text]').press('Enter');
    await expect.poll(() => box.inputValue()).toBe('Groceries @shop:\n- milk tomorrow\n- [x] eggs\ncall dad');

    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.getByText('Captured 4 items.').waitFor();
    expect(await box.inputValue()).toBe('');
    const titles = page.locator('.items .item .title');
    await expect.poll(async () => (await titles.allTextContents()).map((s) => s.trim()).sort()).toEqual(['Groceries', 'call dad', 'eggs', 'milk']);
    const items = await stored();
    expect(items.map((i) => [i.title, i.is_completed, i.parent_id === null ? null : items.find((p) => p.id === i.parent_id)?.title]).sort()).toEqual([
      ['Groceries', false, null],
      ['call dad', false, null],
      ['eggs', true, 'Groceries'],
      ['milk', false, 'Groceries'],
    ]);

    // One Undo removes the whole batch.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(/^Undone: the \d+ items are gone\.$/).waitFor();
    await expect.poll(() => titles.count()).toBe(0);
    expect(await stored()).toEqual([]);
  });

  it('captures a pasted list as one item when "One item" stays chosen', async () => {
    const { page } = await t.signedUp();
    await page.goto('/inbox');
    await page.getByLabel('Capture a note or todo').fill('first line\nsecond line');
    await page.getByRole('radio', { name: 'Split into 2 items' }).waitFor();
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.waitForLoadState('load');
    await expect.poll(() => page.locator('.items .item .title').allTextContents()).toEqual(['first line']);
  });
});
