import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ApiError, createClient, type CaptureInbox, type Change } from '@capture-inbox/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { makeHome } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

const CIN = resolve(import.meta.dirname, '../../packages/cli/dist/cin.js');
const DAY = 24 * 3600_000;

describe.each(DIALECTS)('live changes in the SDK and cin (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let inbox: CaptureInbox;

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    inbox = createClient({ baseUrl: t.baseUrl, token: user.token });
  });
  afterAll(async () => t?.close());

  /** Where the feed ends now: a stream from here gets every later change. */
  const feedEnd = async (): Promise<string> => (await inbox.changes.list({ limit: 500 })).next_cursor;

  it('changes.stream() yields each change once, in order, across a reconnect with Last-Event-ID', async () => {
    const start = await feedEnd();
    const controller = new AbortController();
    const got: Change[] = [];
    const reading = (async () => {
      try {
        for await (const change of inbox.changes.stream({ cursor: start, signal: controller.signal, reconnectMs: 50 })) got.push(change);
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      }
    })();
    for (const text of ['one', 'two']) await inbox.items.capture({ text });
    await waitFor(() => got.length >= 2, { what: 'two changes' });
    // The server ends every stream (as on a restart); the iterator reconnects after the last id it got.
    t.services.live.endAll();
    for (const text of ['three', 'four']) await inbox.items.capture({ text });
    await waitFor(() => got.length >= 4, { what: 'four changes' });
    const feed = (await inbox.changes.list({ cursor: start, limit: 500 })).changes;
    expect(got.map((c) => c.id)).toEqual(feed.map((c) => c.id));
    expect(got.map((c) => c.data.item?.title)).toEqual(['one', 'two', 'three', 'four']);
    controller.abort();
    await reading;
  });

  it('changes.stream() ends with an ApiError the server means: 410 cursor_expired', async () => {
    const start = await feedEnd();
    t.clock.advance(31 * DAY);
    try {
      const error = await (async () => {
        for await (const _change of inbox.changes.stream({ cursor: start })) return undefined;
        return undefined;
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 410, error: 'cursor_expired' });
    } finally {
      t.clock.advance(-31 * DAY);
    }
  });

  it('cin watch prints each change as one line (--json: one JSON object a line) until Ctrl-C, then exits 0', async () => {
    const home = makeHome();
    try {
      for (const json of [false, true]) {
        const start = await feedEnd();
        const child = spawn(process.execPath, [CIN, 'watch', '--cursor', start, ...(json ? ['--json'] : [])], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.dir, CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
        try {
          const item = await inbox.items.capture({ text: `watched ${json ? 'json' : 'text'}` });
          await inbox.items.toggle(item.id);
          const lines = await waitFor(
            () => {
              const l = stdout.split('\n').filter(Boolean);
              return l.length >= 2 ? l : undefined;
            },
            { what: () => `two lines from cin watch (stdout ${stdout}, stderr ${stderr})` },
          );
          if (json) {
            const changes = lines.map((l) => JSON.parse(l) as Change);
            expect(changes.map((c) => [c.event, c.data.item?.id])).toEqual([
              ['item.created', item.id],
              ['item.completed', item.id],
            ]);
          } else {
            expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d created\s+[0-9a-f]{8} {2}watched text$/);
            expect(lines[1]).toMatch(/ completed\s+[0-9a-f]{8} {2}watched text$/);
          }
          child.kill('SIGINT');
          expect(await exited).toBe(0);
          expect(stderr).toBe('');
        } finally {
          if (child.exitCode === null) child.kill('SIGKILL');
        }
      }
    } finally {
      home.dispose();
    }
  });
});
