import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

vi.setConfig({ testTimeout: 90_000 });
const execFileAsync = promisify(execFile);

/*
 * One server per SQLite file (issue 45, decisions/0067), with the real dist/server.js: a second
 * server started on a file another one serves exits at once with a message that names the file,
 * the serving process and what to do, while the first serves on; a killed server leaves no claim
 * behind; a WORKERS cluster holds the file through its primary; the admin CLI works beside it.
 */
describe('a second server on one SQLite file', () => {
  let dir: string;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cin-one-server-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'inbox.db')}`, SECRET_KEY: '07'.repeat(32), WORKERS: '1' };
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = async (extra: Record<string, string> = {}, ready?: (output: string) => boolean) => {
    const server = await startServerProcess({ ...env, ...extra }, 30_000, ready ? { ready } : {});
    servers.push(server);
    return server;
  };
  const refusedStart = async (extra: Record<string, string> = {}) => {
    const error: unknown = await startServerProcess({ ...env, ...extra }, 30_000).then(
      async (server) => {
        servers.push(server);
        return undefined;
      },
      (reason: unknown) => reason,
    );
    expect(error, 'the second server started').toBeInstanceOf(Error);
    return (error as Error).message;
  };

  it('refuses to start, naming the file and the serving process; the first serves on', async () => {
    const first = await start();
    const message = await refusedStart();
    expect(message).toContain('the server exited');
    expect(message).toContain(`another server already serves the SQLite database ${join(dir, 'inbox.db')} (process ${first.child.pid} on `);
    expect(message).toMatch(/set WORKERS .*use PostgreSQL/s);
    expect((await fetch(`${first.baseUrl}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    // operations.md: admin commands are safe to run while the server is up.
    const admin = await execFileAsync(process.execPath, [resolve(import.meta.dirname, '../../dist/cli/admin.js'), 'user', 'list'], {
      env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
      timeout: 30_000,
    });
    expect(admin.stderr).toBe('');
  });

  it('starts right after a server was killed (SIGKILL leaves no claim behind)', async () => {
    const first = await start();
    process.kill(first.child.pid!, 'SIGKILL');
    await first.exited;
    const next = await start();
    expect((await fetch(`${next.baseUrl}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
  });

  it('lets a WORKERS=2 cluster serve the file through its primary, and refuses a server beside it', async () => {
    const cluster = await start({ WORKERS: '2' }, (output) => (output.match(/Server listening/g) ?? []).length >= 2);
    const message = await refusedStart();
    expect(message).toContain(`(process ${cluster.child.pid} on `);
    expect((await fetch(`${cluster.baseUrl}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
  });
});
