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
 * folder (create, edit, complete and delete on both sides), and a second run that changes nothing.
 */

describe.skipIf(lacking(VDIRSYNCER)).each(DIALECTS)('vdirsyncer two-way sync (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let api: Client;
  let dir: string;
  let folder: string;

  // Asynchronous: the server answers from this process, so a synchronous spawn would starve it.
  const vdirsyncer = async (...args: string[]): Promise<string> => {
    const child = spawn(findProgram(VDIRSYNCER)!, ['-c', join(dir, 'config'), ...args], { timeout: 60_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdin.end('y\n'.repeat(20));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status, output).toBe(0);
    return output;
  };
  const files = () => readdirSync(folder).filter((f) => f.endsWith('.ics'));

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    api = client(t.app, user.token);
    dir = mkdtempSync(join(tmpdir(), 'cin-vdirsyncer-'));
    folder = join(dir, 'local', user.inboxId);
    writeFileSync(
      join(dir, 'config'),
      [
        '[general]',
        `status_path = "${join(dir, 'status')}"`,
        '[pair inbox]',
        'a = "server"',
        'b = "local"',
        `collections = ["${user.inboxId}"]`,
        'conflict_resolution = "a wins"',
        '[storage server]',
        'type = "caldav"',
        `url = "${t.baseUrl}/dav/"`,
        'username = "me"',
        `password = "${user.token}"`,
        '[storage local]',
        'type = "filesystem"',
        `path = "${join(dir, 'local')}"`,
        'fileext = ".ics"',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('syncs both ways, then a second run changes nothing', async () => {
    await api.post('capture', { text: 'from the server', due_at: '2026-12-01T09:00:00Z' });
    const doomed = (await api.post('capture', { text: 'to be deleted on the phone' })).body;
    await vdirsyncer('discover', 'inbox');
    await vdirsyncer('sync');
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
    await vdirsyncer('sync');
    const titles = ((await api.get('items')).body.items as Array<{ title: string }>).map((i) => i.title).sort();
    expect(titles).toEqual(['from the folder', 'from the server']);

    // Server side: complete one; the folder sees it, and the unmapped property survived the round trip.
    const items = (await api.get('items')).body.items as Array<{ id: string; title: string }>;
    await api.patch(`items/${items.find((i) => i.title === 'from the folder')!.id}`, { status: 'done' });
    await vdirsyncer('sync');
    const local = readFileSync(join(folder, 'local-new.ics'), 'utf8');
    expect(local).toContain('STATUS:COMPLETED');
    expect(local).toContain('X-LOCAL:kept');

    // Nothing changed: nothing copied, updated or deleted either way.
    const second = await vdirsyncer('sync');
    expect(second).not.toMatch(/Copying|Updating|Deleting/);
    expect(files()).toHaveLength(2);
  });
});
