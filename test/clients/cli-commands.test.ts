import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { FakeTranscriptionServer } from '../helpers/fake-transcription-server.js';
import { createUser, type JsonBody, type TestUser } from '../helpers/test-app.js';
import { LIBRIVOX_DIR } from '../helpers/voice.js';
import { makeHome, runCin, type CinRun } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';
import { FFMPEG, lacking } from '../helpers/system-programs.js';

const json = (run: CinRun): JsonBody => {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code, run.stderr).toBe(0);
  // Exactly one JSON document: JSON.parse refuses anything before or after it.
  return JSON.parse(run.stdout);
};

describe('cin without a server', () => {
  const home = makeHome();
  afterAll(() => home.dispose());

  it('--help lists every command; help COMMAND prints its manual; both exit 0', async () => {
    const overview = await runCin(home.dir, ['--help']);
    expect(overview.code).toBe(0);
    for (const name of [
      'login',
      'logout',
      'whoami',
      'add',
      'ls',
      'search',
      'show',
      'done',
      'undone',
      'archive',
      'rm',
      'edit',
      'snooze',
      'channels',
      'projects',
      'filters',
      'voice',
      'export',
      'import',
      'watch',
      'completion',
    ]) {
      expect(overview.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
    const manual = await runCin(home.dir, ['help', 'add']);
    expect(manual.code).toBe(0);
    expect(manual.stdout).toContain(
      'Usage: cin add [TEXT...] [--raw | --dry-run] [--note] [--organize] [--project NAME | --parent ID] [--due WHEN] [--tag T]...',
    );
    expect(manual.stdout).toContain('--dry-run');
    expect(manual.stdout).toContain('--due WHEN');
    expect((await runCin(home.dir, ['ls', '--help'])).stdout).toContain(
      'Usage: cin ls [--project NAME] [--due today|overdue|week] [--sort due|created] [--all] [--limit N] [--filter QUERY | --view NAME]',
    );
  });

  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../packages/cli/package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await runCin(home.dir, [flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`cin ${version}\n`);
    }
  });

  it('exits 2 with usage on stderr for an unknown command, an unknown flag, a missing argument, or nothing at all', async () => {
    for (const args of [['frobnicate'], ['ls', '--bogus'], ['show'], [], ['help', 'nope'], ['ls', '--limit', 'many']]) {
      const run = await runCin(home.dir, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr, args.join(' ')).toMatch(/usage: cin/);
    }
  });

  it('exits 3 with "not logged in: run cin login" when no server or no key is known', async () => {
    for (const env of [{}, { CAPTURE_INBOX_URL: 'http://127.0.0.1:9' }] as Array<Record<string, string>>) {
      const run = await runCin(home.dir, ['ls'], { env });
      expect(run.code).toBe(3);
      expect(run.stderr).toBe('not logged in: run cin login\n');
    }
    expect((await runCin(home.dir, ['login'])).code).toBe(2);
  });

  it('exits 1 naming the address and the cause when the server cannot be reached (after the bounded retries)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const run = await runCin(home.dir, ['whoami'], { env: { CAPTURE_INBOX_URL: `http://127.0.0.1:${port}`, CAPTURE_INBOX_TOKEN: 'cin_abc_def' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^error unreachable: cannot reach http://127.0.0.1:${port}: .*ECONNREFUSED`));
  });

  it('exits 2 saying what an address looks like when --server or CAPTURE_INBOX_URL is not one', async () => {
    for (const env of [
      { CAPTURE_INBOX_URL: 'localhost:8080', CAPTURE_INBOX_TOKEN: 'cin_abc_def' },
      { CAPTURE_INBOX_URL: 'inbox', CAPTURE_INBOX_TOKEN: 'cin_abc_def' },
    ]) {
      const run = await runCin(home.dir, ['whoami'], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/must be an address like http:\/\/localhost:8080/);
    }
  });
});

describe.each(DIALECTS)('cin against the server (%s)', (dialect) => {
  const fake = new FakeTranscriptionServer();
  let t: ListeningApp;
  let user: TestUser;
  const home = makeHome();
  let env: Record<string, string>;
  const cin = (args: string[], options: Parameters<typeof runCin>[2] = {}) => runCin(home.dir, args, { ...options, env: { ...env, ...options.env } });

  beforeAll(async () => {
    await fake.start();
    t = await startListeningApp(dialect, { transcribe: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: 'test-key', model: 'test-model' } } });
    user = await createUser(t, 'pro');
    await t.services.users.updateMe(user.id, { timezone: 'Europe/Berlin' });
    env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
    home.dispose();
  });

  it("add captures text, reads --due words in the user's zone on the server, sets tags and project, and prints the row", async () => {
    await cin(['add', 'placeholder']);
    const project = await t.services.projects.findOrCreate(user.id, 'Errands');
    const added = json(await cin(['add', 'buy', 'oat', 'milk', '--due', 'tomorrow 5pm', '--tag', 'shop', '--tag', 'milk', '--project', 'errands', '--json']));
    // The manual clock stands at Sat 2026-11-21 10:00Z; tomorrow 17:00 in Berlin is 16:00Z.
    expect(added).toMatchObject({ title: 'buy oat milk', due_at: '2026-11-22T16:00:00.000Z', tags: ['milk', 'shop'], project_id: project.id, type: 'todo' });
    const human = await cin(['add', 'call', 'mom', '--due', '2026-12-01T09:30:00+01:00']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}call mom {2}Inbox {2}Tue 1 Dec 09:30\n$/);
    const note = json(await cin(['add', '--note', '--json'], { stdin: 'from stdin\nthe body' }));
    expect(note).toMatchObject({ title: 'from stdin', content_md: 'the body', type: 'note' });
    const refused = await cin(['add', 'x', '--due', 'groceries']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error bad_request: cannot read a due date from "groceries"/);
  });

  it('add reads quick add by default, --raw stores the text as typed, and --dry-run prints spans and fields storing nothing', async () => {
    // A user of its own, so the listings of the other tests stay as they are.
    const other = await createUser(t, 'free');
    await t.services.users.updateMe(other.id, { timezone: 'Europe/Berlin' });
    const work = await t.services.projects.findOrCreate(other.id, 'Work');
    const as = { env: { CAPTURE_INBOX_TOKEN: other.token } };
    const dry = await cin(['add', 'Call Sam tomorrow 5pm #Work @calls every! week', '--dry-run'], as);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')).toEqual([
      'date        "tomorrow 5pm"  → Sun, 22 Nov 2026, 17:00 (Europe/Berlin)',
      'project     "#Work"  → Work',
      'tag         "@calls"  → calls',
      'recurrence  "every! week"  → FREQ=WEEKLY',
      '',
      'title       Call Sam',
      'project     Work',
      'due         Sun, 22 Nov 2026, 17:00 (Europe/Berlin)',
      'tags        calls',
      'repeats     FREQ=WEEKLY (from completion)',
      '',
      'dry run: nothing was stored',
      '',
    ]);
    const dryJson = json(await cin(['add', 'Call Sam tomorrow 5pm #Work', '--dry-run', '--json'], as));
    expect(dryJson).toMatchObject({ title: 'Call Sam', project_id: work.id, due_at: '2026-11-22T16:00:00.000Z' });
    expect((await t.services.items.list(other.id, { limit: 5 })).items).toEqual([]);
    const parsed = json(await cin(['add', 'Call Sam tomorrow 5pm #Work @calls', '--json'], as));
    expect(parsed).toMatchObject({ title: 'Call Sam', project_id: work.id, tags: ['calls'], due_at: '2026-11-22T16:00:00.000Z' });
    // An explicit flag wins over the text.
    const flagged = json(await cin(['add', 'Call Sam #Work @calls', '--project', 'Inbox', '--tag', 'phone', '--json'], as));
    expect(flagged).toMatchObject({ title: 'Call Sam', project_id: other.inboxId, tags: ['phone'] });
    const raw = json(await cin(['add', 'Call Sam tomorrow 5pm #Work @calls', '--raw', '--json'], as));
    expect(raw).toMatchObject({ title: 'Call Sam tomorrow 5pm #Work @calls', project_id: other.inboxId, tags: [], due_at: null });
    expect((await cin(['add', 'x', '--raw', '--dry-run'], as)).code).toBe(2);
  });

  it('ls shows open items newest first, aligned, with short ids; --all, --project, --limit and --json narrow or widen it', async () => {
    const rows = (await cin(['ls'])).stdout.trimEnd().split('\n');
    // A note is marked ~, apart from the todos' boxes; tags follow the title.
    expect(rows[0]).toMatch(/^[0-9a-f]{8} {2} ~  {2}from stdin/);
    expect(rows.find((r) => r.includes('buy oat milk'))).toMatch(/\[ \] {2}buy oat milk {2}@milk @shop +Errands/);
    // Aligned: every row's project column starts at the same place.
    const starts = rows.map((row) => row.search(/ (Inbox|Errands)/));
    expect(new Set(starts).size).toBe(1);
    expect(rows.find((r) => r.includes('buy oat milk'))).toMatch(/Errands {2}Sun 22 Nov 17:00$/);

    const items = json(await cin(['ls', '--json']));
    const milk = items.find((i: { title: string }) => i.title === 'buy oat milk');
    expect(json(await cin(['done', milk.id.slice(-8), '--json'])).status).toBe('done');
    expect(json(await cin(['ls', '--json'])).map((i: { id: string }) => i.id)).not.toContain(milk.id);
    expect(json(await cin(['ls', '--all', '--json'])).map((i: { id: string }) => i.id)).toContain(milk.id);
    expect(json(await cin(['ls', '--all', '--project', 'Errands', '--json'])).map((i: { title: string }) => i.title)).toEqual(['buy oat milk']);
    expect(json(await cin(['ls', '--limit', '1', '--json']))).toHaveLength(1);
    expect(json(await cin(['undone', milk.id, '--json']))).toMatchObject({ status: 'todo', is_completed: false });
  });

  it('search finds by words and filters by status, tag and project', async () => {
    expect(json(await cin(['search', 'oat', '--json'])).map((i: { title: string }) => i.title)).toEqual(['buy oat milk']);
    expect(json(await cin(['search', 'milk', '--tag', 'shop', '--status', 'todo', '--project', 'Errands', '--json']))).toHaveLength(1);
    expect(json(await cin(['search', 'milk', '--status', 'done', '--json']))).toEqual([]);
    const human = await cin(['search', 'mom']);
    expect(human.stdout).toMatch(/call mom {2}Inbox {2}Tue 1 Dec 09:30\n$/);
    expect((await cin(['search', 'x', '--status', 'later'])).code).toBe(2);
  });

  it('show, edit, archive and rm act on one item by short or full id; an unknown id is exit 1 not_found', async () => {
    const [first] = json(await cin(['search', 'mom', '--json']));
    const short = first.id.replace(/-/g, '').slice(-8);
    const shown = await cin(['show', short]);
    expect(shown.stdout).toContain(
      `call mom\n  id       ${first.id}\n  project  Inbox\n  type     todo\n  status   todo\n  due      Tue 1 Dec 09:30 (Europe/Berlin)`,
    );
    const edited = json(await cin(['edit', short, '--title', 'call mum', '--due', 'none', '--tag', 'family', '--project', 'Errands', '--json']));
    expect(edited).toMatchObject({ title: 'call mum', due_at: null, tags: ['family'] });
    expect((await cin(['edit', short])).code).toBe(2);
    expect(json(await cin(['archive', first.id, '--json'])).status).toBe('archived');
    expect(json(await cin(['rm', short, '--yes', '--json']))).toEqual({ deleted: first.id });
    const gone = await cin(['show', first.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error not_found: /);
    expect((await cin(['done', 'ffffffff'])).stderr).toBe('error not_found: no item has the id ffffffff\n');
  });

  it('edit --every and --remind, snooze, and channels add, list, test and rm', async () => {
    const item = json(await cin(['add', '--raw', 'stretch', '--json']));
    const short = item.id.replace(/-/g, '').slice(-8);
    const every = json(await cin(['edit', short, '--every', 'every monday 9am', '--remind', '2030-01-07T07:45:00Z', '--json']));
    expect(every).toMatchObject({ recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO', from: 'due' }, remind_at: '2030-01-07T07:45:00.000Z' });
    expect(every.due_at).not.toBeNull();
    expect(json(await cin(['edit', short, '--every', '!FREQ=DAILY;INTERVAL=3', '--json'])).recurrence).toEqual({
      rule: 'FREQ=DAILY;INTERVAL=3',
      from: 'completion',
    });
    expect((await cin(['edit', short, '--every', 'whenever'])).code).toBe(2);
    const snoozed = json(await cin(['snooze', short, '30m', '--json']));
    // 30 minutes after the server's (test) clock.
    expect(Date.parse(snoozed.remind_at) - t.clock.now().getTime()).toBe(30 * 60_000);
    expect((await cin(['snooze', short])).code).toBe(2);
    const added = json(await cin(['channels', 'add', 'ntfy', 'https://ntfy.sh/cin-test-topic', '--token', 'tk_1', '--json']));
    expect(added).toMatchObject({ kind: 'ntfy', url: 'https://ntfy.sh/cin-test-topic' });
    expect(json(await cin(['channels', '--json'])).map((c: { id: string }) => c.id)).toContain(added.id);
    // The test app resolves no names (no real DNS): the test send fails, exit 1.
    expect((await cin(['channels', 'test', added.id])).code).toBe(1);
    expect((await cin(['channels', 'add', 'ntfy', 'http://ntfy.sh/plain'])).stderr).toMatch(/^error bad_request: /);
    expect(json(await cin(['channels', 'rm', added.id, '--json']))).toEqual({ ok: true });
    expect(json(await cin(['channels', '--json']))).toEqual([]);
  });

  it('projects, whoami, export and import', async () => {
    const projects = json(await cin(['projects', '--json']));
    expect(projects.map((p: { name: string }) => p.name).sort()).toEqual(['Errands', 'Inbox']);
    expect((await cin(['projects'])).stdout).toMatch(/^Inbox +\d+ items? {2}\(default\)$/m);
    const me = json(await cin(['whoami', '--json']));
    expect(me).toMatchObject({ email: user.email, timezone: 'Europe/Berlin', server: t.baseUrl });
    expect((await cin(['whoami'])).stdout).toMatch(/^email +.*\nplan +pro\ntimezone +Europe\/Berlin\nserver +http/);

    const exported = json(await cin(['export']));
    expect(exported.format).toBe('capture-inbox-export');
    expect((await cin(['export', '--format', 'markdown'])).stdout).toMatch(/^# Errands$/m);
    const file = join(home.dir, 'export.json');
    writeFileSync(file, JSON.stringify(exported));
    const other = await createUser(t);
    const imported = json(await cin(['import', file, '--json'], { env: { CAPTURE_INBOX_TOKEN: other.token } }));
    expect(imported.imported.items).toBe(exported.items.length);
    const csv = join(home.dir, 'todoist.csv');
    writeFileSync(csv, 'TYPE,CONTENT,PRIORITY,DATE\nmeta,view_style=list,,\ntask,Water the plants,2,every 3 days\n');
    expect((await cin(['import', csv], { env: { CAPTURE_INBOX_TOKEN: other.token } })).stdout).toBe(
      'imported 1 items, 0 projects, 0 tags; skipped 1\n  line 2: skipped, unknown row type "meta"\n  line 3: imported without its priority (p2)\n',
    );
    expect((await cin(['import', join(home.dir, 'missing.json')])).stderr).toMatch(/^error unreadable_file: cannot read .*missing.json: no such file/);
  });

  it.skipIf(lacking(FFMPEG))(
    'voice transcribes a recording and with --add captures the text',
    async () => {
      const clip = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0870.wav');
      expect(json(await cin(['voice', clip, '--json']))).toMatchObject({ text: 'hello from the fake' });
      const added = json(await cin(['voice', clip, '--add', '--json']));
      expect(added.item).toMatchObject({ title: 'hello from the fake' });
    },
    60_000,
  );

  it.skipIf(lacking(FFMPEG))(
    'voice --add on silence says nothing was heard and captures nothing',
    async () => {
      const clip = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0870.wav');
      const before = (await t.services.items.list(user.id, { limit: 100 })).items.length;
      fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: '' }) };
      try {
        const run = await cin(['voice', clip, '--add']);
        expect(run.code).toBe(1);
        expect(run.stderr).toBe(`error nothing_heard: no speech was heard in ${clip}; nothing was captured\n`);
      } finally {
        fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: 'hello from the fake' }) };
      }
      expect((await t.services.items.list(user.id, { limit: 100 })).items.length).toBe(before);
    },
    60_000,
  );

  it('add with a capture-only key captures once and prints from the answer; --project names the missing scope before capturing; tags and #Project go in with the capture', async () => {
    const device = await createUser(t);
    await t.services.projects.findOrCreate(device.id, 'Work');
    const token = (await t.services.keys.mint(device.id, 'capture device', { scopes: ['capture'] })).token;
    const count = async () => (await t.services.items.list(device.id, { limit: 100 })).items.length;
    const added = await cin(['add', 'buy', 'string'], { env: { CAPTURE_INBOX_TOKEN: token } });
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}buy string {2}Inbox\n$/);
    expect(json(await cin(['add', 'as json', '--json'], { env: { CAPTURE_INBOX_TOKEN: token } }))).toMatchObject({ title: 'as json' });
    expect(await count()).toBe(2);
    const toWork = await cin(['add', 'to work', '--project', 'Work'], { env: { CAPTURE_INBOX_TOKEN: token } });
    expect(toWork.code).toBe(1);
    expect(toWork.stderr).toBe(
      'error insufficient_scope: --project NAME needs the read scope, which this key lacks (it has capture); nothing was captured. Run cin login for a key with read, or leave --project NAME out\n',
    );
    expect(await count()).toBe(2);
    // Tags are part of the capture itself (capture scope), so a capture-only key can tag.
    const tagged = await cin(['add', 'tagged', '--tag', 'x', '--json'], { env: { CAPTURE_INBOX_TOKEN: token } });
    expect(tagged.code).toBe(0);
    expect(json(tagged)).toMatchObject({ title: 'tagged', tags: ['x'] });
    // Quick add files it by #Work; the row names the project without reading the project list.
    const filed = await cin(['add', 'plan the offsite #Work'], { env: { CAPTURE_INBOX_TOKEN: token } });
    expect(filed.stderr).toBe('');
    expect(filed.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}plan the offsite {2}Work\n$/);
    expect(await count()).toBe(4);
  });

  it('add --organize on Free captures the text as typed and warns', async () => {
    const free = await createUser(t, 'free');
    const run = await cin(['add', 'organize me', '--organize'], { env: { CAPTURE_INBOX_TOKEN: free.token } });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: the organizer needs the Pro plan \(.+\); captured as typed\n$/);
    expect(run.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}organize me {2}Inbox\n$/);
    expect((await t.services.items.list(free.id, { limit: 100 })).items.map((i) => i.title)).toEqual(['organize me']);
  });

  it('add --organize prints why the organizer filed the item', async () => {
    const pro = await createUser(t, 'pro');
    const env = { CAPTURE_INBOX_TOKEN: pro.token };
    await t.services.projects.findOrCreate(pro.id, 'Garden');
    const run = await cin(['add', 'plant garlic for the garden', '--organize'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^added +[0-9a-f]{8} {2}\[ \] {2}plant garlic for the garden {2}Garden\nwhy {7}names Garden\n$/);
  });

  it('exits 1 with "error <code>: <message>" when the server refuses', async () => {
    const free = await createUser(t, 'free');
    const run = await cin(['voice', join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0870.wav')], { env: { CAPTURE_INBOX_TOKEN: free.token } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error pro_required: .+\n$/);
    expect(run.stdout).toBe('');
    const bad = await cin(['whoami'], { env: { CAPTURE_INBOX_TOKEN: 'cin_nothing_real' } });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^error unauthorized: .*CAPTURE_INBOX_TOKEN.* run cin login\n$/);
  });

  it('reads the saved login; the environment overrides it; the saved key never goes to another server', async () => {
    const saved = makeHome();
    try {
      mkdirSync(dirname(saved.config), { recursive: true });
      writeFileSync(saved.config, JSON.stringify({ server: t.baseUrl, token: user.token, key_id: user.keyId }), { mode: 0o600 });
      chmodSync(saved.config, 0o600);
      const fromFile = await runCin(saved.dir, ['whoami', '--json']);
      expect(json(fromFile).email).toBe(user.email);
      const other = await createUser(t);
      expect(json(await runCin(saved.dir, ['whoami', '--json'], { env: { CAPTURE_INBOX_TOKEN: other.token } })).email).toBe(other.email);
      const elsewhere = await runCin(saved.dir, ['whoami', '--server', 'http://127.0.0.1:9']);
      expect(elsewhere.code).toBe(3);
      // XDG_CONFIG_HOME moves the file: an empty one there means not logged in.
      expect((await runCin(saved.dir, ['whoami'], { env: { XDG_CONFIG_HOME: join(saved.dir, 'elsewhere') } })).code).toBe(3);
      expect(json(await runCin(saved.dir, ['logout', '--json']))).toMatchObject({ logged_out: true, key_id: user.keyId });
      expect(() => readFileSync(saved.config)).toThrow();
      expect((await runCin(saved.dir, ['whoami'])).code).toBe(3);
    } finally {
      saved.dispose();
    }
  });
});
