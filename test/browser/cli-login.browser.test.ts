import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeHome, runCin } from '../clients/cin-process.js';
import { DIALECTS } from '../helpers/dialects.js';
import { useBrowserApp } from './browser-app.js';
import { screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/connect\/agent\?state=[A-Za-z0-9_-]{32})/;

/* `cin login` end to end: the real binary prints the link, a signed-in user approves it in chromium. */
describe.skipIf(lacking(CHROMIUM)).each(DIALECTS)('cin login approved in chromium (%s)', (dialect) => {
  const t = useBrowserApp({ dialect });

  it('approving in the browser logs cin in; cin then adds, lists and completes with the saved key', async () => {
    const { page, email } = await t.signedUp();
    const home = makeHome();
    try {
      let approval: Promise<void> | undefined;
      const login = await runCin(home.dir, ['login', '--server', t.baseUrl, '--label', 'cin in CI', '--scopes', 'read,capture,write', '--no-browser'], {
        timeoutMs: 60_000,
        onStderr: {
          match: URL_LINE,
          then: (m) => {
            approval = (async () => {
              await page.goto(m[1]!);
              await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).not.toBe('');
              await screenshot(page, `cin-login-approve-${dialect}`);
              await page.getByRole('button', { name: 'Approve' }).click();
              await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Approved');
            })();
          },
        },
      });
      await approval;
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout).toMatch(new RegExp(`^Logged in to ${t.baseUrl} as ${email} \\(key [0-9a-f-]{36}; read, capture, write\\)\\.\\n$`));
      expect(statSync(home.config).mode & 0o777).toBe(0o600);

      const added = await runCin(home.dir, ['add', 'water the plants', '--json']);
      expect(added.code, added.stderr).toBe(0);
      const id = JSON.parse(added.stdout).id as string;
      expect((await runCin(home.dir, ['ls'])).stdout).toMatch(/^[0-9a-f]{8} {2}\[ \] {2}water the plants {2}Inbox\n$/);
      expect((await runCin(home.dir, ['done', id.replace(/-/g, '').slice(-8)])).code).toBe(0);
      expect((await runCin(home.dir, ['ls'])).stderr).toMatch(/^no open items/);

      // The key shows up in the user's developer settings under the label cin asked for.
      await page.goto('/settings/keys');
      expect(await page.locator('tr', { hasText: 'cin in CI' }).locator('td[data-label="Scopes"]').textContent()).toBe('read, capture, write');
    } finally {
      home.dispose();
    }
  }, 120_000);
});
