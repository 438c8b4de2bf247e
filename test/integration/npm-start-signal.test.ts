import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Whether any process of the group is left. */
function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

/*
 * `kill -TERM <pid of npm start>`, as an operator or a process manager that knows only npm's pid
 * does it. npm passes the signal to its child; that child was `sh -c "node dist/start.js"`, which
 * died and left the server running as an orphan. The script execs node, so the child is the server.
 */
describe('npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-npm-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the server, not only npm, when npm alone is sent SIGTERM', async () => {
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'inbox.db')}`, SECRET_KEY: '07'.repeat(32) }, 60_000, {
      cwd: ROOT,
      command: { file: NPM, args: ['start', '--silent'] },
    });
    const npmPid = server.child.pid!;
    try {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      process.kill(npmPid, 'SIGTERM');
      await server.exited;
      const gone = await waitFor(() => !groupAlive(npmPid), { timeoutMs: 15_000, what: 'the server to exit' }).then(
        () => true,
        () => false,
      );
      expect(gone, `still running after npm exited:\n${server.output()}`).toBe(true);
      expect(server.output()).toMatch(/"signal":"SIGTERM","msg":"shutting down"/);
    } finally {
      // What is left of the group (the orphaned server, on failure) is stopped by its group id.
      if (groupAlive(npmPid)) process.kill(-npmPid, 'SIGTERM');
      await server.stop();
    }
  }, 90_000);
});
