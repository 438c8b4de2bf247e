import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, stateOf, type ListeningApp } from './listening-app.js';

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/connect\/agent\?state=[A-Za-z0-9_-]{32})/;

describe.each(DIALECTS)('cin login (%s)', (dialect) => {
  let t: ListeningApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    owner = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('prints the approval URL, waits, and once approved saves { server, token, key_id } with mode 0600', async () => {
    const home = makeHome();
    try {
      let url = '';
      const run = await runCin(home.dir, ['login', '--server', t.baseUrl, '--label', 'laptop', '--scopes', 'read,capture,write', '--no-browser'], {
        onStderr: {
          match: URL_LINE,
          then: (m) => {
            url = m[1]!;
            void t.services.pairing.decide(stateOf(url), owner.id, true);
          },
        },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Logged in to ${t.baseUrl} as ${owner.email} \\(key [0-9a-f-]{36}; read, capture, write\\)\\.\\n$`));
      expect(run.stderr).toContain(`open this link and approve:\n\n  ${url}\n`);
      expect(statSync(home.config).mode & 0o777).toBe(0o600);
      const saved = JSON.parse(readFileSync(home.config, 'utf8'));
      expect(Object.keys(saved).sort()).toEqual(['key_id', 'server', 'token']);
      expect(saved.server).toBe(t.baseUrl);
      expect(saved.token).toMatch(/^cin_/);
      // The key is a credential: never printed.
      expect(run.stdout + run.stderr).not.toContain(saved.token);
      const keys = await t.services.keys.list(owner.id);
      expect(keys.find((k) => k.id === saved.key_id)).toMatchObject({ label: 'laptop' });

      // From now on the saved login is used, with no environment at all.
      const whoami = await runCin(home.dir, ['whoami', '--json']);
      expect(JSON.parse(whoami.stdout)).toMatchObject({
        email: owner.email,
        server: t.baseUrl,
        key: { id: saved.key_id, scopes: ['read', 'capture', 'write'] },
      });
    } finally {
      home.dispose();
    }
  });

  it('asks for read, capture and write by default (webhooks only when named)', async () => {
    const home = makeHome();
    try {
      let requested: string[] = [];
      const run = await runCin(home.dir, ['login', '--server', t.baseUrl, '--no-browser', '--json'], {
        onStderr: {
          match: URL_LINE,
          then: (m) => {
            void (async () => {
              requested = (await t.services.pairing.find(stateOf(m[1]!)))?.scopes ?? [];
              await t.services.pairing.decide(stateOf(m[1]!), owner.id, true);
            })();
          },
        },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(requested).toEqual(['read', 'capture', 'write']);
      expect(JSON.parse(run.stdout)).toMatchObject({ scopes: ['read', 'capture', 'write'] });
    } finally {
      home.dispose();
    }
  });

  it('a denial is exit 1 "error access_denied: ..." and leaves the config file as it was', async () => {
    const home = makeHome();
    try {
      const before = JSON.stringify({ server: 'http://127.0.0.1:9', token: 'cin_earlier_login', key_id: 'k' });
      mkdirSync(dirname(home.config), { recursive: true });
      writeFileSync(home.config, before, { mode: 0o600 });
      const run = await runCin(home.dir, ['login', '--no-browser'], {
        env: { CAPTURE_INBOX_URL: t.baseUrl },
        onStderr: { match: URL_LINE, then: (m) => void t.services.pairing.decide(stateOf(m[1]!), owner.id, false) },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/\nerror access_denied: .+\n$/);
      expect(run.stdout).toBe('');
      expect(readFileSync(home.config, 'utf8')).toBe(before);
    } finally {
      home.dispose();
    }
  });

  it('an expired request is exit 1 "error expired: ..."; nothing is saved', async () => {
    const home = makeHome();
    try {
      const run = await runCin(home.dir, ['login', '--server', t.baseUrl, '--no-browser', '--json'], {
        onStderr: { match: URL_LINE, then: () => t.clock.advance(10 * 60_000 + 1) },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/\nerror expired: .+\n$/);
      expect(run.stdout).toBe('');
      expect(existsSync(home.config)).toBe(false);
    } finally {
      home.dispose();
    }
  });

  it('Ctrl-C stops waiting at once: exit 130, nothing saved', async () => {
    const home = makeHome();
    try {
      const started = Date.now();
      const run = await runCin(home.dir, ['login', '--server', t.baseUrl, '--no-browser'], {
        onStderr: { match: /Waiting for approval/, then: (_m, child) => void child.kill('SIGINT') },
      });
      expect(run.code).toBe(130);
      expect(run.stderr).toMatch(/cin: interrupted\n$/);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(existsSync(home.config)).toBe(false);
    } finally {
      home.dispose();
    }
  });

  it('opens the browser ($BROWSER) when there is a display, and not with --no-browser or without one', async () => {
    const home = makeHome();
    try {
      const opened = join(home.dir, 'opened.txt');
      const browser = join(home.dir, 'browser.sh');
      writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
      const attempt = async (args: string[], env: Record<string, string>) => {
        const run = await runCin(home.dir, ['login', '--server', t.baseUrl, ...args], {
          env: { BROWSER: browser, ...env },
          onStderr: { match: /Waiting for approval/, then: (_m, child) => void child.kill('SIGINT') },
        });
        const url = URL_LINE.exec(run.stderr)?.[1] ?? '';
        return { run, url };
      };
      const shown = await attempt([], { DISPLAY: ':0' });
      expect(shown.run.stderr).toContain('(opened in your browser)');
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : '')).toBe(shown.url);

      for (const [args, env] of [
        [['--no-browser'], { DISPLAY: ':0' }],
        [[], {}],
      ] as const) {
        writeFileSync(opened, '');
        const quiet = await attempt([...args], { ...env });
        expect(quiet.run.stderr).not.toContain('opened in your browser');
        await new Promise((r) => setTimeout(r, 200));
        expect(readFileSync(opened, 'utf8')).toBe('');
      }
    } finally {
      home.dispose();
    }
  });

  it('refuses unknown scopes with usage (exit 2) before asking the server', async () => {
    const home = makeHome();
    try {
      const run = await runCin(home.dir, ['login', '--server', t.baseUrl, '--scopes', 'read,admin']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--scopes takes a comma-separated list of read, capture, write, webhooks/);
    } finally {
      home.dispose();
    }
  });
});
