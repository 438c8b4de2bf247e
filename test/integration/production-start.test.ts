import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/*
 * A production install: the built tree without dev dependencies. `npm ci --omit=dev` itself
 * compiles better-sqlite3 for minutes, so this test makes the same tree faster: the installed
 * modules hard-linked, then every package the lockfile marks `dev` removed (what `--omit=dev` leaves
 * out; npm itself is not asked, so it does not rebuild anything). .ci/run does the real
 * `npm ci --omit=dev` once.
 */
describe('npm start on a production install', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-prod-'));
    for (const entry of ['package.json', 'package-lock.json', 'scripts', 'dist', 'packages']) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    expect(spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(dir, 'node_modules')]).status).toBe(0);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (entry.dev && path.startsWith('node_modules/')) rmSync(join(dir, path), { recursive: true, force: true });
    }
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has no dev dependency, and prepare keeps the built dist/ instead of failing on a missing tsc', () => {
    for (const dev of ['typescript', 'vitest', 'pino-pretty', 'playwright-core']) expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false);
    const prepare = spawnSync(process.execPath, ['scripts/build-at-install.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(prepare.status).toBe(0);
    expect(prepare.stdout).toMatch(/using the dist\/ built earlier/);
    // /mcp loads the MCP tools on its first request: the production tree must hold them and their dependencies.
    expect(spawnSync(process.execPath, ['--input-type=module', '-e', "await import('@capture-inbox/mcp')"], { cwd: dir, encoding: 'utf8' }).stderr).toBe('');
  });

  it('starts with `npm start` without compiling, logs JSON lines, and serves /readyz and /docs', async () => {
    const server = await startServerProcess({ DATABASE_URL: 'sqlite:./prod.db', SECRET_KEY: '07'.repeat(32), WORKERS: '1' }, 15_000, {
      cwd: dir,
      command: { file: NPM, args: ['start'] },
    });
    const { baseUrl } = server;
    const output = server.output();
    try {
      const readyMs = Math.round(server.readyMs);
      console.log(`production start: ready in ${readyMs} ms (npm start, WORKERS=1)`);
      expect(output).not.toMatch(/\btsc\b/);
      expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
      expect((await fetch(`${baseUrl}/docs/`)).status).toBe(200);
      // The bundle is ASCII (scripts/bundle.mjs escapes the rest): the page's characters still arrive as written.
      const signup = await (await fetch(`${baseUrl}/signup`)).text();
      expect(signup).toContain('Capture Inbox</title>');
      expect(signup).toMatch(/ \u00b7 Capture Inbox<\/title>/);
      // The browser code was bundled at build time (decision 0068): esbuild is not installed here.
      const script = await fetch(`${baseUrl}${/src="(\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(signup)![1]!}`);
      expect(script.status).toBe(200);
      expect(await script.text()).toContain('data-offline-queue');
      const worker = await fetch(`${baseUrl}/sw.js`);
      expect(worker.headers.get('cache-control')).toBe('no-cache');
      expect(await worker.text()).toMatch(/^var CIN_SHELL = \{"cache":"cin-shell-[0-9a-f]{24}"/);
      const logLines = output.split('\n').filter((l) => l.startsWith('{'));
      expect(logLines.length).toBeGreaterThan(0);
      for (const line of logLines) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await server.stop();
    }
  }, 30_000);
});
