import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';
import { newEmail } from '../helpers/web-client.js';
import { seriousViolations } from './axe.js';
import { useBrowserApp } from './browser-app.js';
import { DESKTOP, PHONE, screenshot } from './chromium.js';

/** The account page's "Email to inbox" card in chromium: copy, rotate (issue 34). The reader is not started. */
describe.skipIf(lacking(CHROMIUM))('email to inbox on the account page in chromium', () => {
  // Nothing listens on port 9: the card only needs the address pattern.
  const t = useBrowserApp({
    app: { emailIn: { imapUrl: 'imap://reader:secret@127.0.0.1:9/INBOX', address: 'inbox+{token}@mail.example.test' } },
    owner: newEmail(),
  });

  const accessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows the address, copies it, and makes a new one (${name})`, async () => {
      const { page, userId } = await t.signedUp(viewport);
      await page.goto('/account');
      const field = page.getByLabel('Your email-in address');
      const first = await field.inputValue();
      expect(first).toBe(await t.services.emailIn.address(userId));
      await page.getByRole('button', { name: 'Copy' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
      await accessible(page);
      await screenshot(page, 'account-email-in');

      await page.getByRole('button', { name: 'New address' }).click();
      await page.getByRole('button', { name: 'Yes, new address' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('A new email-in address is ready.');
      const second = await page.getByLabel('Your email-in address').inputValue();
      expect(second).not.toBe(first);
      expect(second).toBe(await t.services.emailIn.address(userId));
    });
  }
});
