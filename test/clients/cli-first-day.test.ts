import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createClient, type CaptureInbox } from '@capture-inbox/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { makeHome, runCin, type CinRun } from './cin-process.js';
import { startListeningApp, stateOf, type ListeningApp } from './listening-app.js';

const CIN = resolve(import.meta.dirname, '../../packages/cli/dist/cin.js');
const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/connect\/agent\?state=[A-Za-z0-9_-]{32})/;

const ok = (run: CinRun): CinRun => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

/** A newcomer's first day with cin (issue 45): what a fresh account meets, said plainly. */
describe.each(DIALECTS)('cin on a first day (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let inbox: CaptureInbox;
  let zone: string;
  const home = makeHome();
  let env: Record<string, string>;
  const cin = (args: string[], options: Parameters<typeof runCin>[2] = {}) => runCin(home.dir, args, { ...options, env: { ...env, ...options.env } });

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    // Half an hour off UTC, so a time printed in UTC cannot pass for the local one.
    await t.services.users.updateMe(user.id, { timezone: 'Asia/Kolkata' });
    env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    inbox = createClient({ baseUrl: t.baseUrl, token: user.token });
    // The name the server keeps for it (ICU may call it Asia/Calcutta).
    zone = (await inbox.me.get()).timezone;
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  it('add says on stderr that no project is named Work, and how to make one; with the project made, #Work files the item', async () => {
    const first = ok(await cin(['add', 'Send the report friday 5pm #Work']));
    expect(first.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}Send the report #Work {2}Inbox/);
    expect(first.stderr).toBe('note: no project is named Work, so #Work stayed in the title; make it with: cin projects add Work\n');
    // --json: stdout is the one document, the note stays on stderr.
    const scripted = ok(await cin(['add', 'Plan the offsite #"Side project"', '--json']));
    expect(JSON.parse(scripted.stdout)).toMatchObject({ title: 'Plan the offsite #"Side project"' });
    expect(scripted.stderr).toBe(
      `note: no project is named Side project, so #"Side project" stayed in the title; make it with: cin projects add 'Side project'\n`,
    );
    // --dry-run says it too; --raw asks for no quick add, so there is nothing to say; an issue number is no project.
    expect(ok(await cin(['add', 'Call #Work', '--dry-run'])).stderr).toContain('cin projects add Work');
    expect(ok(await cin(['add', 'Call #Work', '--raw'])).stderr).toBe('');
    expect(ok(await cin(['add', 'Fix bug #123'])).stderr).toBe('');

    ok(await cin(['projects', 'add', 'Work']));
    const filed = ok(await cin(['add', 'Send the report friday 5pm #Work @calls']));
    expect(filed.stderr).toBe('');
    expect(filed.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}Send the report {2}@calls {2}Work {2}Fri 27 Nov 17:00\n$/);
  });

  it('show prints the repeat and the reminder; snooze prints the new reminder, not the due date', async () => {
    const item = await inbox.items.capture({ text: 'water the plants', due_at: '2026-11-23T04:30:00.000Z' });
    await inbox.items.update(item.id, { recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO', from: 'completion' }, remind_at: '2026-11-23T03:30:00.000Z' });
    const shown = ok(await cin(['show', item.id])).stdout;
    expect(shown).toContain(`  due       Mon 23 Nov 10:00 (${zone})\n`);
    expect(shown).toContain('  repeats   FREQ=WEEKLY;BYDAY=MO (from each completion)\n');
    expect(shown).toContain(`  reminder  Mon 23 Nov 09:00 (${zone})\n`);

    const snoozed = ok(await cin(['snooze', item.id, '2h']));
    // The test clock stands at Sat 21 Nov 10:00Z: two hours on is 17:30 in Kolkata.
    expect(snoozed.stdout).toBe(`snoozed   ${item.id.replace(/-/g, '').slice(-8)}  water the plants  reminder Sat 21 Nov 17:30 (${zone})\n`);
    expect(snoozed.stdout).not.toContain('Mon 23 Nov');
  });

  it('channels with none says so and how to add one; --json is still []', async () => {
    const none = ok(await cin(['channels']));
    expect(none.stdout).toMatch(/^No notification channels yet/);
    expect(none.stdout).toContain('cin channels add ntfy https://ntfy.sh/');
    expect(none.stdout).toContain('cin channels add email ');
    expect(JSON.parse(ok(await cin(['channels', '--json'])).stdout)).toEqual([]);
  });

  it("watch prints each change's time in the user's zone, as every other output does", async () => {
    const start = (await inbox.changes.list({ limit: 500 })).next_cursor;
    const child = spawn(process.execPath, [CIN, 'watch', '--cursor', start], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    try {
      const item = await inbox.items.capture({ text: 'watched in Kolkata' });
      const line = await waitFor(() => stdout.split('\n').find((l) => l.endsWith('watched in Kolkata')), { what: () => `a line from cin watch: ${stdout}` });
      const [change] = (await inbox.changes.list({ cursor: start, limit: 5 })).changes.filter((c) => c.data.item?.id === item.id);
      const local = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Kolkata',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(change!.created_at));
      expect(line).toBe(`${local} created     ${item.id.replace(/-/g, '').slice(-8)}  watched in Kolkata`);
      expect(local).not.toBe(change!.created_at.slice(11, 19));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe.each(DIALECTS)('cin with two servers (%s)', (dialect) => {
  let a: ListeningApp;
  let b: ListeningApp;
  let ownerA: TestUser;
  let ownerB: TestUser;
  const home = makeHome();

  const login = (app: ListeningApp, owner: TestUser) =>
    runCin(home.dir, ['login', '--server', app.baseUrl, '--no-browser'], {
      onStderr: { match: URL_LINE, then: (m) => void app.services.pairing.decide(stateOf(m[1]!), owner.id, true) },
    });
  const whoami = async (args: string[] = []) =>
    JSON.parse(ok(await runCin(home.dir, ['whoami', '--json', ...args])).stdout) as { email: string; server: string };
  const saved = () => JSON.parse(readFileSync(home.config, 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    a = await startListeningApp(dialect);
    b = await startListeningApp(dialect);
    ownerA = await createUser(a);
    ownerB = await createUser(b);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    home.dispose();
  });

  it('keeps a key per server: the last login is the default, --server picks another with its own key, logout forgets one', async () => {
    ok(await login(a, ownerA));
    expect(Object.keys(saved()).sort()).toEqual(['key_id', 'server', 'token']);
    ok(await login(b, ownerB));
    // The top level stays the shape every cin reads ({ server, token, key_id }): B now, A beside it.
    const file = saved();
    expect(file).toMatchObject({ server: b.baseUrl, other_servers: [{ server: a.baseUrl }] });
    expect(statSync(home.config).mode & 0o777).toBe(0o600);

    expect(await whoami()).toMatchObject({ email: ownerB.email, server: b.baseUrl });
    expect(await whoami(['--server', a.baseUrl])).toMatchObject({ email: ownerA.email, server: a.baseUrl });
    expect(await whoami(['--server', `${a.baseUrl}/`])).toMatchObject({ email: ownerA.email });
    // A server never logged in to is still "not logged in": no saved key goes to it.
    const elsewhere = await runCin(home.dir, ['whoami', '--server', 'http://127.0.0.1:9']);
    expect(elsewhere.code).toBe(3);

    // Logging in to A again makes it the default, replacing its old key; B stays saved.
    ok(await login(a, ownerA));
    expect(saved()).toMatchObject({ server: a.baseUrl, other_servers: [{ server: b.baseUrl }] });
    expect((saved().other_servers as unknown[]).length).toBe(1);

    const out = ok(await runCin(home.dir, ['logout', '--server', b.baseUrl]));
    expect(out.stdout).toMatch(/^Revoked the key .* on http:\/\/127\.0\.0\.1:\d+ and forgot it\.\n$/);
    expect(Object.keys(saved()).sort()).toEqual(['key_id', 'server', 'token']);
    expect(await whoami()).toMatchObject({ email: ownerA.email });

    ok(await login(b, ownerB));
    const last = ok(await runCin(home.dir, ['logout']));
    expect(last.stderr).toBe(`cin now uses ${a.baseUrl}, logged in to before.\n`);
    expect(await whoami()).toMatchObject({ email: ownerA.email });
  }, 180_000);
});
