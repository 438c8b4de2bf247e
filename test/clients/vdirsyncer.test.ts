import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { findProgram, lacking, VDIRSYNCER } from '../helpers/system-programs.js';
import { client, createUser, type Client, type TestUser } from '../helpers/test-app.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/*
 * Debian's vdirsyncer against a real server: a two-way sync of the Inbox collection with a local
 * folder (create, edit, complete and delete on both sides), and a second run that changes nothing;
 * then a 1,000-item account (issue 49: both ways, twice more with nothing copied or rewritten).
 */

describe.skipIf(lacking(VDIRSYNCER)).each(DIALECTS)('vdirsyncer two-way sync (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let api: Client;
  let dir: string;
  let folder: string;

  // Asynchronous: the server answers from this process, so a synchronous spawn would starve it.
  const vdirsyncer = async (configDir: string, ...args: string[]): Promise<string> => {
    const child = spawn(findProgram(VDIRSYNCER)!, ['-c', join(configDir, 'config'), ...args], { timeout: 240_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdin.end('y\n'.repeat(20));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status, output).toBe(0);
    return output;
  };
  const icsFiles = (path: string) => readdirSync(path).filter((f) => f.endsWith('.ics'));
  const files = () => icsFiles(folder);

  /** A vdirsyncer configuration pairing a user's Inbox collection with a folder under a new directory. */
  function configure(owner: TestUser): { dir: string; folder: string } {
    const at = mkdtempSync(join(tmpdir(), 'cin-vdirsyncer-'));
    writeFileSync(
      join(at, 'config'),
      [
        '[general]',
        `status_path = "${join(at, 'status')}"`,
        '[pair inbox]',
        'a = "server"',
        'b = "local"',
        `collections = ["${owner.inboxId}"]`,
        'conflict_resolution = "a wins"',
        '[storage server]',
        'type = "caldav"',
        `url = "${t.baseUrl}/dav/"`,
        'username = "me"',
        `password = "${owner.token}"`,
        '[storage local]',
        'type = "filesystem"',
        `path = "${join(at, 'local')}"`,
        'fileext = ".ics"',
        '',
      ].join('\n'),
    );
    dirs.push(at);
    return { dir: at, folder: join(at, 'local', owner.inboxId) };
  }
  const dirs: string[] = [];

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    api = client(t.app, user.token);
    ({ dir, folder } = configure(user));
  });
  afterAll(async () => {
    await t?.close();
    for (const at of dirs) rmSync(at, { recursive: true, force: true });
  });

  it('syncs both ways, then a second run changes nothing', async () => {
    await api.post('capture', { text: 'from the server', due_at: '2026-12-01T09:00:00Z' });
    const doomed = (await api.post('capture', { text: 'to be deleted on the phone' })).body;
    await vdirsyncer(dir, 'discover', 'inbox');
    await vdirsyncer(dir, 'sync');
    expect(files()).toHaveLength(2);
    expect(
      files()
        .map((f) => readFileSync(join(folder, f), 'utf8'))
        .join(''),
    ).toContain('SUMMARY:from the server');

    // Local side: a new todo, an edit with a property the service does not map, a deletion.
    writeFileSync(
      join(folder, 'local-new.ics'),
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//T//EN',
        'BEGIN:VTODO',
        'UID:local-new',
        'DTSTAMP:20261129T080000Z',
        'SUMMARY:from the folder',
        'X-LOCAL:kept',
        'END:VTODO',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    unlinkSync(
      join(
        folder,
        files().find((f) => readFileSync(join(folder, f), 'utf8').includes(doomed.id))!,
      ),
    );
    await vdirsyncer(dir, 'sync');
    const titles = ((await api.get('items')).body.items as Array<{ title: string }>).map((i) => i.title).sort();
    expect(titles).toEqual(['from the folder', 'from the server']);

    // Server side: complete one; the folder sees it, and the unmapped property survived the round trip.
    const items = (await api.get('items')).body.items as Array<{ id: string; title: string }>;
    await api.patch(`items/${items.find((i) => i.title === 'from the folder')!.id}`, { status: 'done' });
    await vdirsyncer(dir, 'sync');
    const local = readFileSync(join(folder, 'local-new.ics'), 'utf8');
    expect(local).toContain('STATUS:COMPLETED');
    expect(local).toContain('X-LOCAL:kept');

    // Nothing changed: nothing copied, updated or deleted either way.
    const second = await vdirsyncer(dir, 'sync');
    expect(second).not.toMatch(/Copying|Updating|Deleting/);
    expect(files()).toHaveLength(2);
  });

  it('syncs a 1,000-item account both ways, then twice more with nothing copied, changed or rewritten', async () => {
    // 500 items on the server (five batches, the batch limit is 100) and 500 todos in the folder.
    const owner = await createUser(t);
    const theirs = client(t.app, owner.token);
    for (let batch = 0; batch < 5; batch += 1) {
      const text = Array.from({ length: 100 }, (_, i) => `server item ${batch * 100 + i}`).join('\n');
      expect((await theirs.post('capture/batch', { text, parse: false })).status).toBe(201);
    }
    const at = configure(owner);
    await vdirsyncer(at.dir, 'discover', 'inbox');
    await vdirsyncer(at.dir, 'sync');
    expect(icsFiles(at.folder)).toHaveLength(500);
    for (let i = 0; i < 500; i += 1) {
      const todo = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//T//EN',
        'BEGIN:VTODO',
        `UID:local-${i}`,
        'DTSTAMP:20261129T080000Z',
        `SUMMARY:local item ${i}`,
        'END:VTODO',
        'END:VCALENDAR',
        '',
      ];
      writeFileSync(join(at.folder, `local-${i}.ics`), todo.join('\r\n'));
    }
    await vdirsyncer(at.dir, 'sync');

    // Both sides hold the 1,000, each once.
    const allTitles = async (): Promise<string[]> => {
      const titles: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 20; pages += 1) {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const page = (await theirs.get(`items?limit=200${query}`)).body as { items: Array<{ title: string }>; next_cursor: string | null };
        titles.push(...page.items.map((item) => item.title));
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      return titles.sort();
    };
    const titles = await allTitles();
    expect(titles).toHaveLength(1000);
    expect(new Set(titles).size).toBe(1000);
    expect(icsFiles(at.folder)).toHaveLength(1000);

    // Twice more: nothing copied, updated or deleted either way, and no file rewritten.
    const snapshot = () => new Map(icsFiles(at.folder).map((f) => [f, readFileSync(join(at.folder, f), 'utf8')]));
    const before = snapshot();
    for (let run = 0; run < 2; run += 1) expect(await vdirsyncer(at.dir, 'sync')).not.toMatch(/Copying|Updating|Deleting/);
    expect(snapshot()).toEqual(before);
    expect(await allTitles()).toEqual(titles);
  }, 600_000);
});
