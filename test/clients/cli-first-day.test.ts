import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin, type CinRun } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

const ok = (run: CinRun): CinRun => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

/** A newcomer's first day with cin (issue 45): what a fresh account meets, said plainly. */
describe.each(DIALECTS)('cin on a first day (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  const home = makeHome();
  let env: Record<string, string>;
  const cin = (args: string[], options: Parameters<typeof runCin>[2] = {}) => runCin(home.dir, args, { ...options, env: { ...env, ...options.env } });

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    // Half an hour off UTC, so a time printed in UTC cannot pass for the local one.
    await t.services.users.updateMe(user.id, { timezone: 'Asia/Kolkata' });
    env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
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
});
