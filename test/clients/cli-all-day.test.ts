import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type JsonBody } from '../helpers/test-app.js';
import { makeHome, runCin, type CinRun } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/* `cin` and all-day dates (contract "All-day dates"): --due with a day alone is all-day, shown as a date. */
const json = (run: CinRun): JsonBody => {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

describe.each(DIALECTS)('cin and all-day dates (%s)', (dialect) => {
  let t: ListeningApp;
  const home = makeHome();
  beforeAll(async () => {
    t = await startListeningApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  it('add --due "dec 24" is all-day; edit --due with a time makes it timed, a day alone all-day again; ls and show print the date only', async () => {
    const user = await createUser(t, 'free');
    await t.services.users.updateMe(user.id, { timezone: 'Europe/Berlin' });
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    const cin = (args: string[]) => runCin(home.dir, args, { env });

    const added = json(await cin(['add', 'pay', 'rent', '--due', 'dec 24', '--json']));
    expect(added.all_day).toBe(true);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(new Date(added.due_at))).toBe('00:00');

    const listed = await cin(['ls']);
    expect(listed.code, listed.stderr).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.includes('pay rent'))!;
    expect(row).toMatch(/Thu 24 Dec(?: \d{4})?\s*$/);
    expect(row).not.toMatch(/\d\d:\d\d/);
    const shown = await cin(['show', added.id]);
    expect(shown.stdout).toMatch(/due\s+Thu 24 Dec(?: \d{4})?, all day \(Europe\/Berlin\)/);

    const timed = json(await cin(['edit', added.id, '--due', 'dec 24 5pm', '--json']));
    expect(timed.all_day).toBe(false);
    expect((await cin(['ls'])).stdout.split('\n').find((line) => line.includes('pay rent'))).toMatch(/17:00/);
    const again = json(await cin(['edit', added.id, '--due', 'dec 26', '--json']));
    expect(again.all_day).toBe(true);
    const cleared = json(await cin(['edit', added.id, '--due', 'none', '--json']));
    expect(cleared).toMatchObject({ due_at: null, all_day: false });
    // Seven cin processes, each a fresh Node start: generous on a loaded machine.
  }, 180_000);
});
