import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useBrowserApp } from './browser-app.js';
import { chatAnswer, FakeOpenAi, loopbackFetch } from '../helpers/fake-openai.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * Contract "Brain dump" with an OpenAI-compatible organizer (decision 0099): with Organize ticked,
 * prose typed in the capture box is previewed as the model splits it, and the batch stores those
 * rows; Organize unticked, prose stays one item and no model is asked.
 */
vi.setConfig({ testTimeout: 90_000 });

describe.skipIf(lacking(CHROMIUM))('brain dump, the model splits prose (chromium)', () => {
  const fake = new FakeOpenAi();
  // Registered first, so the model's server is up when the app's options name its address.
  beforeAll(() => fake.start());
  const t = useBrowserApp(() => ({
    at: new Date('2026-11-26T10:00:00.000Z'),
    app: {
      fetch: loopbackFetch,
      organizer: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: undefined, model: 'test-model' }, timeoutMs: 2000 },
    },
  }));
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const PROSE = 'Pick up the dry cleaning tomorrow and then email Sam about the offsite';
  const splitAnswer = () => chatAnswer(JSON.stringify({ items: ['Pick up the dry cleaning tomorrow', 'email Sam about the offsite'] }));

  it("previews the model's split of prose with Organize ticked and stores those items", async () => {
    fake.answer = splitAnswer;
    const { page, userId } = await t.signedUp(undefined, 'pro');
    await page.goto('/inbox');
    await page.getByRole('checkbox', { name: 'Organize' }).check();
    await page.getByLabel('Capture a note or todo').fill(PROSE);

    const split = page.getByRole('radio', { name: 'Split into 2 items' });
    await split.waitFor();
    await split.check();
    const rows = page.locator('[data-brain-dump-list] li');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.locator('input[type=text]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).toEqual([
      'Pick up the dry cleaning tomorrow',
      'email Sam about the offsite',
    ]);
    expect(await rows.nth(0).locator('.chip[data-kind=date]').count()).toBe(1);

    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.getByText('Captured 2 items.').waitFor();
    const items = (await t.services.items.list(userId, { limit: 100 })).items;
    expect(items.map((i) => [i.title, i.all_day]).sort()).toEqual([
      ['Pick up the dry cleaning', true],
      ['email Sam about the offsite', false],
    ]);
    // The preview asked once; the batch stored what it showed without asking again.
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps prose one item, asking no model, with Organize unticked', async () => {
    fake.answer = splitAnswer;
    const { page } = await t.signedUp(undefined, 'pro');
    await page.goto('/inbox');
    await page.getByRole('checkbox', { name: 'Organize' }).uncheck();
    await page.getByLabel('Capture a note or todo').fill(PROSE);
    // Past the prose pause: still no offer to split.
    await page.waitForTimeout(1600);
    expect(await page.locator('[data-brain-dump]').isHidden()).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });
});
