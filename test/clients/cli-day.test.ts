import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { lacking, SCRIPT } from '../helpers/system-programs.js';
import { client, createUser, type JsonBody, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin, runCinOnTty, type CinRun } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/*
 * `cin` for a whole day (issue 35, point 5): due views, projects, subtasks, notes and the editor,
 * several ids at once, confirmation, colour and width, logout, a refused key, shell completion.
 */

const json = (run: CinRun): JsonBody => {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};
const titles = (items: JsonBody): string[] => (items as Array<{ title: string }>).map((i) => i.title);
const ESC = '\u001b[';
const HOUR = 3_600_000;
const short = (id: string): string => id.replace(/-/g, '').slice(-8);

describe('cin completion (no server)', () => {
  const home = makeHome();
  afterAll(() => home.dispose());
  const commands = async (): Promise<string[]> =>
    (await runCin(home.dir, ['--help'])).stdout.split('\n').flatMap((line) => /^ {2}([a-z]+) {2,}\S/.exec(line)?.[1] ?? []);

  it('bash: the script parses, registers _cin for cin, and completes commands, flags, actions and flag values', async () => {
    const run = await runCin(home.dir, ['completion', 'bash']);
    expect(run.code).toBe(0);
    const file = join(home.dir, 'cin.bash');
    writeFileSync(file, run.stdout);
    execFileSync('bash', ['-n', file]);
    const complete = (words: string[]): string =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$1"; complete -p cin; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cin; echo "\${COMPREPLY[*]}"`,
          'bash',
          file,
        ],
        {
          encoding: 'utf8',
        },
      );
    expect(complete(['cin', 'pro'])).toBe('complete -o filenames -F _cin cin\nprojects\n');
    expect(complete(['cin', 'ls', '--d']).split('\n')[1]).toBe('--due');
    expect(complete(['cin', 'ls', '--due', '']).split('\n')[1]).toBe('today overdue week');
    expect(complete(['cin', 'projects', '']).split('\n')[1]).toBe('add rename rm');
    expect(complete(['cin', 'rm', '-']).split('\n')[1]?.split(' ')).toEqual(expect.arrayContaining(['--yes', '-y', '--json', '--server', '--help']));
    const names = await commands();
    expect(names.length).toBeGreaterThan(15);
    const all = complete(['cin', '']).split('\n')[1]!.split(' ');
    expect(all).toEqual(expect.arrayContaining([...names, 'help']));
  });

  it('zsh and fish: the scripts name every command help lists, with their flags', async () => {
    const names = await commands();
    const zsh = await runCin(home.dir, ['completion', 'zsh']);
    const fish = await runCin(home.dir, ['completion', 'fish']);
    expect(zsh.code).toBe(0);
    expect(fish.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef cin\n/);
    for (const name of names) {
      expect(zsh.stdout, name).toMatch(new RegExp(`^ {4}'${name}:`, 'm'));
      expect(zsh.stdout, name).toMatch(new RegExp(`^ {4}\\(${name}\\)$`, 'm'));
      expect(fish.stdout, name).toContain(`complete -c cin -n __fish_use_subcommand -f -a ${name} -d `);
    }
    expect(zsh.stdout).toContain('(--due) compadd -- today overdue week');
    expect(fish.stdout).toContain("complete -c cin -n '__fish_seen_subcommand_from ls' -l due -x -a 'today overdue week'");
    expect(fish.stdout).toContain("complete -c cin -n '__fish_seen_subcommand_from rm' -l yes -s y");
    expect((await runCin(home.dir, ['completion', 'tcsh'])).code).toBe(2);
  });
});

describe.each(DIALECTS)('cin for a whole day (%s)', (dialect) => {
  let t: ListeningApp;
  const home = makeHome();

  beforeAll(async () => {
    t = await startListeningApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  /** A user of its own (Berlin time), and cin bound to its key. */
  async function newUser(zone = 'Europe/Berlin'): Promise<{ user: TestUser; cin: (args: string[], env?: Record<string, string>) => Promise<CinRun> }> {
    const user = await createUser(t, 'pro');
    await t.services.users.updateMe(user.id, { timezone: zone });
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    return { user, cin: (args, more = {}) => runCin(home.dir, args, { env: { ...env, ...more } }) };
  }

  async function capture(user: TestUser, text: string, fields: Record<string, unknown> = {}): Promise<JsonBody> {
    const res = await client(t.app, user.token).post('capture', { text, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  it("ls --due today|overdue|week picks by the user's days, sorted by due; --sort due|created orders any list", async () => {
    const { user, cin } = await newUser();
    // cin reads days on its own clock (the real one), so the due dates are set from it.
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    await capture(user, 'far off', { due_at: at(10 * 24 * HOUR) });
    await capture(user, 'later today', { due_at: at(60_000) });
    await capture(user, 'in three days', { due_at: at(3 * 24 * HOUR) });
    await capture(user, 'three days late', { due_at: at(-3 * 24 * HOUR) });
    await capture(user, 'no date');
    const finished = await capture(user, 'done and late', { due_at: at(-24 * HOUR) });
    await client(t.app, user.token).patch(`items/${finished.id}`, { status: 'done' });

    expect(titles(json(await cin(['ls', '--due', 'overdue', '--json'])))).toEqual(['three days late']);
    expect(titles(json(await cin(['ls', '--due', 'today', '--json'])))).toEqual(['later today']);
    expect(titles(json(await cin(['ls', '--due', 'week', '--json'])))).toEqual(['later today', 'in three days']);
    expect(titles(json(await cin(['ls', '--due', 'week', '--sort', 'created', '--json'])))).toEqual(['in three days', 'later today']);
    expect(titles(json(await cin(['ls', '--due', 'overdue', '--all', '--json'])))).toEqual(['three days late', 'done and late']);
    expect(titles(json(await cin(['ls', '--sort', 'due', '--json'])))).toEqual(['three days late', 'later today', 'in three days', 'far off', 'no date']);
    expect(titles(json(await cin(['ls', '--sort', 'due', '--limit', '2', '--json'])))).toEqual(['three days late', 'later today']);
    expect(titles(json(await cin(['ls', '--json'])))).toEqual(['no date', 'three days late', 'in three days', 'later today', 'far off']);
    // Human rows: the overdue one first, in Berlin time.
    const rows = (await cin(['ls', '--due', 'week'])).stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/later today +Inbox {2}\w{3} \d+ \w{3} \d\d:\d\d$/);
    const nothing = await cin(['ls', '--due', 'today', '--project', 'Inbox', '--limit', '1', '--sort', 'created']);
    expect(nothing.stdout).toMatch(/later today/);
    for (const bad of [
      ['ls', '--due', 'tomorrow'],
      ['ls', '--sort', 'title'],
      ['ls', 'words'],
    ]) {
      const run = await cin(bad);
      expect(run.code, bad.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/usage: cin ls/);
    }
  });

  it("ls --due today follows the user's zone: the same instant is today in one zone and not in another", async () => {
    // 23 hours ahead is today only where today has at least 23 hours left; pick the zone where it is
    // and the zone where it is not by asking Intl for each zone's date now and then.
    const dueAt = new Date(Date.now() + 23 * HOUR);
    const dayIn = (zone: string, d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(d);
    const zones = ['Pacific/Kiritimati', 'Asia/Tokyo', 'Europe/Berlin', 'America/New_York', 'Pacific/Pago_Pago'];
    const sameDay = zones.filter((z) => dayIn(z, new Date()) === dayIn(z, dueAt));
    const otherDay = zones.filter((z) => dayIn(z, new Date()) !== dayIn(z, dueAt));
    expect(otherDay.length).toBeGreaterThan(0);
    for (const zone of [...sameDay.slice(0, 1), ...otherDay.slice(0, 1)]) {
      const { user, cin } = await newUser(zone);
      await capture(user, 'tomorrow-ish', { due_at: dueAt.toISOString() });
      const expected = sameDay.includes(zone) ? ['tomorrow-ish'] : [];
      expect(titles(json(await cin(['ls', '--due', 'today', '--json']))), zone).toEqual(expected);
    }
  });

  it('projects add, rename and rm (which moves the items to the Inbox, refuses the Inbox, and wants --yes off a terminal)', async () => {
    const { user, cin } = await newUser();
    const added = json(await cin(['projects', 'add', 'Home', 'office', '--json']));
    expect(added).toMatchObject({ name: 'Home office', is_default: false });
    expect((await cin(['projects', 'add', 'home OFFICE'])).stdout).toMatch(/^exists {4}Home office {2}[0-9a-f-]{36}\n$/);
    expect(json(await cin(['projects', 'rename', 'home office', 'Office', '--json']))).toMatchObject({ id: added.id, name: 'Office' });
    expect((await cin(['projects', 'rename', 'Office'])).code).toBe(2);
    await capture(user, 'paint the wall', { project_id: added.id });

    const noTty = await cin(['projects', 'rm', 'Office']);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toMatch(/^cin projects: not deleting the project Office: there is no terminal to confirm on; pass --yes/);
    const inbox = await cin(['projects', 'rm', 'inbox', '--yes']);
    expect(inbox.code).toBe(1);
    expect(inbox.stderr).toBe('error bad_request: Inbox cannot be deleted: items without a project live there\n');
    expect((await cin(['projects', 'frobnicate'])).code).toBe(2);

    const removed = await cin(['projects', 'rm', 'office', '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('deleted   Office (1 item moves to the Inbox)\n');
    const projects = json(await cin(['projects', '--json'])) as Array<{ name: string; item_count: number }>;
    expect(projects.map((p) => [p.name, p.item_count])).toEqual([['Inbox', 1]]);
  });

  it.skipIf(lacking(SCRIPT))('rm and projects rm ask on a terminal: y deletes, anything else keeps it (exit 1)', async () => {
    const { user } = await newUser();
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    const kept = await capture(user, 'keep me');
    const no = await runCinOnTty(home.dir, ['rm', short(kept.id)], { env, input: 'n\n' });
    expect(no.code).toBe(1);
    expect(no.stdout).toContain(`Delete "keep me" (${short(kept.id)}) and its subtasks for good? [y/N] `);
    expect(no.stdout).toContain(`error cancelled: not deleting ${short(kept.id)}: not confirmed`);
    expect((await client(t.app, user.token).get(`items/${kept.id}`)).status).toBe(200);

    const yes = await runCinOnTty(home.dir, ['rm', short(kept.id)], { env, input: 'y\n' });
    expect(yes.code, yes.stdout).toBe(0);
    expect(yes.stdout).toContain(`deleted   ${short(kept.id)}`);
    expect((await client(t.app, user.token).get(`items/${kept.id}`)).status).toBe(404);

    const project = await t.services.projects.findOrCreate(user.id, 'Garage');
    const ask = await runCinOnTty(home.dir, ['projects', 'rm', 'garage'], { env, input: 'yes\n' });
    expect(ask.code, ask.stdout).toBe(0);
    expect(ask.stdout).toContain('Delete the project "Garage"? Its 0 items move to the Inbox. [y/N] ');
    expect((await client(t.app, user.token).get(`projects/${project.id}`)).status).toBe(404);
  });

  it('rm off a terminal refuses (exit 2) and deletes nothing; --yes deletes', async () => {
    const { user, cin } = await newUser();
    const item = await capture(user, 'scripted');
    const refused = await cin(['rm', item.id]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^cin rm: not deleting [0-9a-f-]+: there is no terminal to confirm on; pass --yes to go ahead without asking\n/);
    expect((await client(t.app, user.token).get(`items/${item.id}`)).status).toBe(200);
    expect((await cin(['rm', item.id, '-y'])).stdout).toBe(`deleted   ${short(item.id)}\n`);
    expect((await client(t.app, user.token).get(`items/${item.id}`)).status).toBe(404);
  });

  it('add --parent makes a subtask in the parent’s project; show lists the subtasks in the API’s order', async () => {
    const { user, cin } = await newUser();
    const work = await t.services.projects.findOrCreate(user.id, 'Work');
    const parent = await capture(user, 'plan the offsite', { project_id: work.id });
    const first = json(await cin(['add', 'book the venue', '--parent', short(parent.id), '--json']));
    t.clock.advance(1000);
    expect(first).toMatchObject({ title: 'book the venue', parent_id: parent.id, project_id: work.id });
    const second = await cin(['add', 'order food', '--parent', parent.id]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}order food {2}Work\n$/);
    const children = (await client(t.app, user.token).get(`items/${parent.id}/children`)).body as Array<{ title: string }>;
    // The API answers subtasks newest first; show keeps its order.
    expect(children.map((c) => c.title)).toEqual(['order food', 'book the venue']);

    const shown = await cin(['show', short(parent.id)]);
    expect(shown.stdout).toMatch(/\n\nSubtasks \(2\):\n {2}[0-9a-f]{8} {2}\[ \] {2}order food {6}Work\n {2}[0-9a-f]{8} {2}\[ \] {2}book the venue {2}Work\n$/);
    const shownJson = json(await cin(['show', parent.id, '--json']));
    expect(shownJson).toMatchObject({ id: parent.id, title: 'plan the offsite' });
    expect(titles(shownJson.subtasks)).toEqual(['order food', 'book the venue']);
    expect((await cin(['show', first.id])).stdout).toContain(`  parent   ${short(parent.id)}\n`);

    expect((await cin(['add', 'x', '--parent', parent.id, '--project', 'Work'])).code).toBe(2);
    const missing = await cin(['add', 'orphan', '--parent', 'ffffffff']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error not_found: no item has the id ffffffff\n');
    // A capture-only key cannot place a subtask: refused before anything is captured.
    const device = (await t.services.keys.mint(user.id, 'device', { scopes: ['capture'] })).token;
    const before = (await t.services.items.list(user.id, { limit: 100 })).items.length;
    const scoped = await cin(['add', 'from the device', '--parent', parent.id], { CAPTURE_INBOX_TOKEN: device });
    expect(scoped.code).toBe(1);
    expect(scoped.stderr).toMatch(/^error insufficient_scope: --parent needs the read scope, which this key lacks \(it has capture\); nothing was captured/);
    expect((await t.services.items.list(user.id, { limit: 100 })).items.length).toBe(before);
  });

  it('edit --notes sets or clears the notes; edit ID alone opens $EDITOR on title and notes and saves only what changed', async () => {
    const { user, cin } = await newUser();
    const item = await capture(user, 'draft the letter');
    expect(json(await cin(['edit', short(item.id), '--notes', 'Dear Sam,\n\nthanks.', '--json']))).toMatchObject({
      title: 'draft the letter',
      content_md: 'Dear Sam,\n\nthanks.',
    });

    // The editor: a node script that records what it was shown and writes what the test wants.
    const seen = join(home.dir, 'seen.txt');
    const script = join(home.dir, 'editor.mjs');
    writeFileSync(
      script,
      `import { readFileSync, statSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ text: readFileSync(file, 'utf8'), mode: statSync(file).mode & 0o777 }));
if (process.env.NEW_TEXT !== undefined) writeFileSync(file, process.env.NEW_TEXT);
process.exit(Number(process.env.EDITOR_EXIT ?? 0));
`,
    );
    const editor = `'${process.execPath}' '${script}'`;
    const viaEditor = (more: Record<string, string> = {}) => cin(['edit', short(item.id)], { EDITOR: editor, ...more });

    const changed = await viaEditor({ NEW_TEXT: 'Draft the letter to Sam\n\nDear Sam,\n\nthanks for everything.\n' });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(/^edited +[0-9a-f]{8} {2}\[ \] {2}Draft the letter to Sam {2}Inbox\n$/);
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual({ text: 'draft the letter\n\nDear Sam,\n\nthanks.\n', mode: 0o600 });
    const afterEdit = (await client(t.app, user.token).get(`items/${item.id}`)).body;
    expect(afterEdit).toMatchObject({ title: 'Draft the letter to Sam', content_md: 'Dear Sam,\n\nthanks for everything.' });

    // Unchanged: nothing is sent (updated_at stays, though the server's clock moved on).
    t.clock.advance(60_000);
    const same = await viaEditor();
    expect(same.code).toBe(0);
    expect(same.stderr).toBe('nothing changed\n');
    expect((await client(t.app, user.token).get(`items/${item.id}`)).body.updated_at).toBe(afterEdit.updated_at);

    // VISUAL wins over EDITOR; clearing the notes sends content_md null.
    const cleared = await cin(['edit', item.id, '--json'], { VISUAL: editor, EDITOR: 'false', NEW_TEXT: 'Draft the letter to Sam\n' });
    expect(json(cleared)).toMatchObject({ title: 'Draft the letter to Sam', content_md: null });

    const empty = await viaEditor({ NEW_TEXT: '\n\nonly notes\n' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe('error empty_title: the title is empty; nothing was changed\n');
    const failed = await viaEditor({ NEW_TEXT: 'lost\n', EDITOR_EXIT: '3' });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error editor_failed: the editor \(.+\) exited with 3; nothing was changed\n$/);
    expect((await client(t.app, user.token).get(`items/${item.id}`)).body).toMatchObject({ title: 'Draft the letter to Sam', content_md: null });

    // No editor and no terminal: the usage says what to do.
    const noEditor = await cin(['edit', item.id]);
    expect(noEditor.code).toBe(2);
    expect(noEditor.stderr).toMatch(/set EDITOR to edit the title and notes/);
    expect((await cin(['edit', item.id, '--title', ' '])).code).toBe(2);
  });

  it('done A B C marks each; a refused id is reported, the rest are still done, and the exit code is 1', async () => {
    const { user, cin } = await newUser();
    const a = await capture(user, 'a');
    const b = await capture(user, 'b');
    const c = await capture(user, 'c');
    const run = await cin(['done', short(a.id), 'ffffffff', b.id, short(c.id)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error not_found: no item has the id ffffffff\n');
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^done {6}[0-9a-f]{8} {2}\[x\] {2}a {2}Inbox$/),
      expect.stringMatching(/^done {6}[0-9a-f]{8} {2}\[x\] {2}b {2}Inbox$/),
      expect.stringMatching(/^done {6}[0-9a-f]{8} {2}\[x\] {2}c {2}Inbox$/),
    ]);
    for (const item of [a, b, c]) expect((await client(t.app, user.token).get(`items/${item.id}`)).body.status).toBe('done');
    const again = await cin(['undone', a.id, b.id, '--json']);
    expect((json(again) as Array<{ status: string }>).map((i) => i.status)).toEqual(['todo', 'todo']);
    expect((await cin(['done'])).code).toBe(2);
  });

  it('colour on a terminal, none in a pipe; NO_COLOR and FORCE_COLOR are honoured; titles cut to the width, never in --json', async () => {
    const { user, cin } = await newUser();
    const long = 'a rather long title that will not fit a narrow terminal at all, however it is cut';
    const item = await capture(user, long, { tags: ['errand'], due_at: new Date(Date.now() - HOUR).toISOString() });
    await capture(user, 'a note\nwith a body', { type: 'note' });

    const piped = await cin(['ls']);
    expect(piped.stdout).not.toContain(ESC);
    // A pipe gets whole titles; a note is marked ~, a todo [ ], tags follow the title.
    expect(piped.stdout).toContain(`[ ]  ${long}  @errand  Inbox`);
    expect(piped.stdout).toMatch(/^[0-9a-f]{8} {3}~ {3}a note /m);
    const forced = await cin(['ls'], { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain(`${ESC}2m${short(item.id)}${ESC}22m`);
    // Overdue dates are red.
    expect(forced.stdout).toMatch(new RegExp(`\\u001b\\[31m\\w{3} \\d+ \\w{3} \\d\\d:\\d\\d\\u001b\\[39m`));
    expect((await cin(['ls'], { FORCE_COLOR: '0' })).stdout).not.toContain(ESC);
    expect((await cin(['ls', '--json'], { FORCE_COLOR: '1' })).stdout).not.toContain(ESC);

    // COLUMNS narrows a pipe's rows the way a terminal's width does; --json is never cut.
    const narrow = (await cin(['ls'], { COLUMNS: '60' })).stdout.trimEnd().split('\n');
    for (const row of narrow) expect(Array.from(row).length, row).toBeLessThanOrEqual(60);
    // The tags stay when the title can give way for them.
    expect(narrow.join('\n')).toMatch(/\[ \] {2}a rather l… {2}@errand {2}Inbox {2}/);
    expect(titles(json(await cin(['ls', '--json'], { COLUMNS: '60' })))).toContain(long);

    if (lacking(SCRIPT)) return;
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    const tty = await runCinOnTty(home.dir, ['ls'], { env, columns: 50 });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain(ESC);
    const plainRows = stripVTControlCharacters(tty.stdout).trimEnd().split('\n');
    for (const row of plainRows) expect(Array.from(row).length, row).toBeLessThanOrEqual(50);
    expect(plainRows.join('\n')).toContain('…');
    const noColor = await runCinOnTty(home.dir, ['ls'], { env: { ...env, NO_COLOR: '1' }, columns: 200 });
    expect(noColor.stdout).not.toContain(ESC);
    expect(noColor.stdout).toContain(`${long}  @errand`);
    expect((await runCinOnTty(home.dir, ['ls', '--json'], { env, columns: 50 })).stdout).toContain(long);
  });

  it('a revoked or unknown saved key: "run cin login", exit 3', async () => {
    const { user } = await newUser();
    const saved = makeHome();
    try {
      mkdirSync(dirname(saved.config), { recursive: true });
      writeFileSync(saved.config, JSON.stringify({ server: t.baseUrl, token: user.token, key_id: user.keyId }), { mode: 0o600 });
      expect((await runCin(saved.dir, ['ls'])).code).toBe(0);
      await t.services.keys.revoke(user.keyId);
      for (const args of [['ls'], ['done', 'ffffffff', 'eeeeeeee'], ['add', 'lost?']]) {
        const run = await runCin(saved.dir, args);
        expect(run.code, args.join(' ')).toBe(3);
        expect(run.stderr).toBe('error unauthorized: the server does not accept the saved key (revoked, expired or unknown): run cin login\n');
      }
    } finally {
      saved.dispose();
    }
  });

  it('logout revokes its key on the server and forgets it; unreachable, it still forgets and says the key stays valid', async () => {
    const { user } = await newUser();
    const other = await t.services.keys.mint(user.id, 'other device');
    const saved = makeHome();
    const save = (server: string, token: string, keyId: string) => {
      mkdirSync(dirname(saved.config), { recursive: true });
      writeFileSync(saved.config, JSON.stringify({ server, token, key_id: keyId }), { mode: 0o600 });
    };
    try {
      save(t.baseUrl, user.token, user.keyId);
      const out = await runCin(saved.dir, ['logout']);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toBe(`Revoked the key ${user.keyId} on ${t.baseUrl} and forgot it.\n`);
      expect((await client(t.app, user.token).get('me')).status).toBe(401);
      expect((await client(t.app, other.token).get('me')).status).toBe(200);
      expect((await runCin(saved.dir, ['whoami'])).code).toBe(3);

      // The same (now dead) key saved again: forgotten, and said to be revoked already.
      save(t.baseUrl, user.token, user.keyId);
      expect(json(await runCin(saved.dir, ['logout', '--json']))).toEqual({
        logged_out: true,
        server: t.baseUrl,
        key_id: user.keyId,
        revoked: true,
        revocation: 'already_invalid',
      });

      save('http://127.0.0.1:9', other.token, other.key_id);
      const away = await runCin(saved.dir, ['logout']);
      expect(away.code).toBe(0);
      expect(away.stdout).toBe(`Forgot the key ${other.key_id} for http://127.0.0.1:9.\n`);
      expect(away.stderr).toMatch(/^warning: the server could not be reached \(.*\); the key stays valid until you revoke it in the web app/);
      expect(() => readFileSync(saved.config)).toThrow();
      expect((await client(t.app, other.token).get('me')).status).toBe(200);
      expect((await runCin(saved.dir, ['logout'])).stdout).toBe('No saved login to forget.\n');
    } finally {
      saved.dispose();
    }
  }, 30_000);
});
