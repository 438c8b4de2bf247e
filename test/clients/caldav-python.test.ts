import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { findProgram, lacking, PYTHON_CALDAV } from '../helpers/system-programs.js';
import { client, createUser } from '../helpers/test-app.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/*
 * Debian's python3-caldav (the library many scripts and bridges use) against a real server on
 * 127.0.0.1: discovery from the server's root, listing todos, creating, completing and deleting one.
 */

const SCRIPT = String.raw`
import json, sys
import caldav

base, user, password = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}
dav = caldav.DAVClient(url=base + "/dav/", username=user, password=password)
principal = dav.principal()
calendars = principal.calendars()
out["calendars"] = sorted(str(c.name) for c in calendars)
inbox = next(c for c in calendars if c.name == "Inbox")
out["todos"] = sorted(str(t.vobject_instance.vtodo.summary.value) for t in inbox.todos())
made = inbox.save_todo(
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//python-caldav test//EN\r\nBEGIN:VTODO\r\nUID:py-caldav-1\r\n"
    "DTSTAMP:20261129T080000Z\r\nSUMMARY:from python\r\nDUE;VALUE=DATE:20261205\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
)
out["after_create"] = sorted(str(t.vobject_instance.vtodo.summary.value) for t in inbox.todos())
found = inbox.todo_by_uid("py-caldav-1")
found.complete()
out["open_after_complete"] = sorted(str(t.vobject_instance.vtodo.summary.value) for t in inbox.todos())
out["all_after_complete"] = sorted(str(t.vobject_instance.vtodo.summary.value) for t in inbox.todos(include_completed=True))
print(json.dumps(out), flush=True)
sys.stdin.readline()
inbox.todo_by_uid("py-caldav-1").delete()
print(json.dumps({"deleted": True}), flush=True)
`;

describe.skipIf(lacking(PYTHON_CALDAV)).each(DIALECTS)('python3-caldav against the CalDAV server (%s)', (dialect) => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('discovers, lists todos, creates, completes and deletes one', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    await capture(api, 'made in the web app', { parse: false });
    ok(await api.post('projects', { name: 'Errands' }));

    // Asynchronous: the server answers from this process, so a synchronous spawn would starve it.
    const child = spawn(findProgram(PYTHON_CALDAV)!, ['-c', SCRIPT, t.baseUrl, user.email, user.token], { timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    const lines: string[] = [];
    let waiting: (() => void) | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const parts = stdout.split('\n');
      stdout = parts.pop()!;
      lines.push(...parts.filter((l) => l.trim() !== ''));
      waiting?.();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const nextLine = async (n: number): Promise<string> => {
      while (lines.length < n) {
        const more = new Promise<void>((resolve) => (waiting = resolve));
        const ended = await Promise.race([more.then(() => false), closed.then(() => true)]);
        if (ended && lines.length < n) throw new Error(`python3-caldav ended early: ${stderr}`);
      }
      return lines[n - 1]!;
    };

    const seen = JSON.parse(await nextLine(1));
    expect(seen.calendars).toEqual(['Errands', 'Inbox', 'Notes']);
    expect(seen.todos).toEqual(['made in the web app']);
    expect(seen.after_create).toEqual(['from python', 'made in the web app']);
    expect(seen.open_after_complete).toEqual(['made in the web app']);
    expect(seen.all_after_complete).toEqual(['from python', 'made in the web app']);

    const items = ok(await api.get('items')).items as Array<{ title: string; is_completed: boolean; all_day: boolean; due_at: string | null }>;
    const made = items.find((i) => i.title === 'from python');
    expect(made).toMatchObject({ is_completed: true, all_day: true });

    child.stdin.end('\n');
    expect(JSON.parse(await nextLine(2))).toEqual({ deleted: true });
    expect(await closed, stderr).toBe(0);
    expect((ok(await api.get('items')).items as Array<{ title: string }>).map((i) => i.title)).toEqual(['made in the web app']);
  });
});
