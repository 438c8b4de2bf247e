import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { capture } from '../helpers/items.js';
import { client, createUser, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, stateOf, type ListeningApp } from './listening-app.js';

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/connect\/agent\?state=[A-Za-z0-9_-]{32})/;

/** Front matter fields of a Markdown file (`key: "value"` lines between the --- fences). */
function frontMatter(text: string): Record<string, unknown> {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
  return Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), JSON.parse(line.slice(line.indexOf(':') + 1).trim())]));
}

describe('cin skill (no login needed)', () => {
  it('installs each agent’s file in its own shape, and reads back what it wrote', async () => {
    const home = makeHome();
    try {
      const dir = join(home.dir, 'skills');
      for (const agent of ['claude', 'codex']) {
        const run = await runCin(home.dir, ['skill', 'install', '--agent', agent, '--dir', join(dir, agent), '--json']);
        expect(run.code, run.stderr).toBe(0);
        const path = join(dir, agent, 'capture-inbox', 'SKILL.md');
        expect(JSON.parse(run.stdout)).toEqual({ agent, files: [path] });
        const text = readFileSync(path, 'utf8');
        expect(frontMatter(text)).toEqual({ name: 'capture-inbox', description: expect.stringMatching(/^Use the user's Capture Inbox/) });
        expect(text).toContain('never as instructions');
        expect(text).toContain('--ndjson');
        expect(text).toMatch(/## Exit codes\n0 done/);
        expect(text).toContain('#Project');
        expect(text).toContain('(today | overdue) & #Work');
      }
      const cursor = await runCin(home.dir, ['skill', 'install', '--agent', 'cursor', '--dir', join(dir, 'cursor')]);
      expect(cursor.stdout).toBe(`wrote ${join(dir, 'cursor', 'capture-inbox.mdc')}\n`);
      expect(frontMatter(readFileSync(join(dir, 'cursor', 'capture-inbox.mdc'), 'utf8'))).toEqual({ description: expect.any(String), alwaysApply: false });
      const gemini = await runCin(home.dir, ['skill', 'install', '--agent', 'gemini', '--dir', join(dir, 'gemini')]);
      expect(gemini.code, gemini.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'gemini', 'capture-inbox', 'gemini-extension.json'), 'utf8'))).toMatchObject({
        name: 'capture-inbox',
        contextFileName: 'GEMINI.md',
      });
      expect(readFileSync(join(dir, 'gemini', 'capture-inbox', 'GEMINI.md'), 'utf8')).toContain('# Capture Inbox with cin');
      const generic = await runCin(home.dir, ['skill', 'install', '--dir', join(dir, 'plain')]);
      expect(generic.code).toBe(0);
      expect(readFileSync(join(dir, 'plain', 'capture-inbox.md'), 'utf8')).toMatch(/^Use the user's Capture Inbox[\s\S]*# Capture Inbox with cin/);
      // Without --dir, the agent's own folder under HOME.
      expect((await runCin(home.dir, ['skill', 'install', '--agent', 'claude'])).code).toBe(0);
      expect(existsSync(join(home.dir, '.claude', 'skills', 'capture-inbox', 'SKILL.md'))).toBe(true);
    } finally {
      home.dispose();
    }
  });

  it('show prints the same content; a wrong agent or action is a usage error', async () => {
    const home = makeHome();
    try {
      const shown = await runCin(home.dir, ['skill', 'show', '--agent', 'claude']);
      expect(shown.code).toBe(0);
      expect(frontMatter(shown.stdout).name).toBe('capture-inbox');
      await runCin(home.dir, ['skill', 'install', '--agent', 'claude', '--dir', home.dir]);
      expect(readFileSync(join(home.dir, 'capture-inbox', 'SKILL.md'), 'utf8')).toBe(shown.stdout);
      expect((await runCin(home.dir, ['skill', 'show', '--agent', 'vim'])).code).toBe(2);
      expect((await runCin(home.dir, ['skill'])).code).toBe(2);
    } finally {
      home.dispose();
    }
  });
});

describe.each(DIALECTS)('cin for agents (%s)', (dialect) => {
  let t: ListeningApp;
  let owner: TestUser;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    owner = await createUser(t);
    env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: owner.token };
  });
  afterAll(async () => t?.close());

  it('lists take --ndjson (one object a line) and --quiet (full ids, one a line)', async () => {
    const home = makeHome();
    try {
      const api = client(t.app, owner.token);
      const a = await capture(api, 'First for ndjson');
      const b = await capture(api, 'Second for ndjson');
      const nd = await runCin(home.dir, ['ls', '--ndjson'], { env });
      expect(nd.code, nd.stderr).toBe(0);
      const lines = nd.stdout.trimEnd().split('\n');
      expect(lines.map((line) => JSON.parse(line).id)).toEqual([b.id, a.id]);
      const quiet = await runCin(home.dir, ['search', 'ndjson', '-q'], { env });
      expect(quiet.stdout).toBe(`${b.id}\n${a.id}\n`);
      const projects = await runCin(home.dir, ['projects', '--ndjson'], { env });
      expect(JSON.parse(projects.stdout.split('\n')[0]!)).toMatchObject({ name: 'Inbox' });
      // Not a list, or two outputs at once: wrong use.
      expect((await runCin(home.dir, ['whoami', '--ndjson'], { env })).code).toBe(2);
      expect((await runCin(home.dir, ['ls', '--json', '--quiet'], { env })).code).toBe(2);
    } finally {
      home.dispose();
    }
  });

  it('keys add prints a new key once on stdout after approval, and saves nothing', async () => {
    const home = makeHome();
    try {
      const run = await runCin(home.dir, ['keys', 'add', '--label', 'Phone calendar', '--scopes', 'read,write', '--expires', '30', '--no-browser', '--json'], {
        env,
        onStderr: { match: URL_LINE, then: (m) => void t.services.pairing.decide(stateOf(m[1]!), owner.id, true) },
      });
      expect(run.code, run.stderr).toBe(0);
      const made = JSON.parse(run.stdout);
      // --expires 30: the key works for 30 days from the exchange, and says until when.
      const until = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString();
      expect(made).toEqual({ token: expect.stringMatching(/^cin_/), key_id: expect.any(String), scopes: ['read', 'write'], expires_at: until });
      expect(run.stderr).not.toContain(made.token);
      expect((await t.services.keys.list(owner.id)).find((k) => k.id === made.key_id)).toMatchObject({ label: 'Phone calendar', expires_at: until });
      expect(existsSync(home.config)).toBe(false);
      // The new key works.
      const whoami = await runCin(home.dir, ['whoami', '--json'], { env: { ...env, CAPTURE_INBOX_TOKEN: made.token } });
      expect(JSON.parse(whoami.stdout).key.scopes).toEqual(['read', 'write']);

      const plain = await runCin(home.dir, ['keys', 'add', '--label', 'Tablet', '--no-browser'], {
        env,
        onStderr: { match: URL_LINE, then: (m) => void t.services.pairing.decide(stateOf(m[1]!), owner.id, true) },
      });
      expect(plain.stdout).toMatch(/^cin_[a-z0-9]{8}_[A-Za-z0-9]{32,}\n$/);
      expect(plain.stderr).not.toContain('works until');
      expect((await runCin(home.dir, ['keys', 'add'], { env })).code).toBe(2);
      for (const days of ['30d', '0', '3651', '-1', '1.5'])
        expect((await runCin(home.dir, ['keys', 'add', '--label', 'x', '--expires', days], { env })).code).toBe(2);
      expect((await runCin(home.dir, ['keys', 'add', '--label', 'x', '--scopes', 'admin'], { env })).code).toBe(2);
    } finally {
      home.dispose();
    }
  });
});
