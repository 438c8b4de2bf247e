import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { waitFor } from './wait.js';

export interface ServerProcess {
  baseUrl: string;
  /** From spawn to "Server listening". */
  readyMs: number;
  child: ChildProcess;
  output(): string;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  /** SIGTERM unless it has exited already, then waits for the exit; answers the exit code. */
  stop(): Promise<number | null>;
}

export interface ServerProcessOptions {
  /** Working directory (where `.env` and a relative sqlite: path are found); this repository by default. */
  cwd?: string;
  /** The server script; dist/server.js of this repository by default. */
  script?: string;
  /** Another command instead of `node <script>` (e.g. `npm start`). */
  command?: { file: string; args: string[] };
  /** Keys of this process's environment left out of the child's (to test what a file sets). */
  withoutEnv?: string[];
  /** Ready only once this also holds of the output (e.g. every cluster worker listening). */
  ready?: (output: string) => boolean;
}

const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;
const GROUP_EXIT_TIMEOUT_MS = 15_000;

/** Once no process of the group is left; bounded, and a group that outlives the bound is left to the caller's cleanup. */
async function groupGone(groupId: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-groupId, 0);
      return true;
    } catch {
      return false;
    }
  };
  await waitFor(() => !alive(), { timeoutMs: GROUP_EXIT_TIMEOUT_MS, what: `process group ${groupId} to exit` }).catch(() => undefined);
}

/**
 * Starts the server (dist/server.js, built by `npm test`) on loopback with an ephemeral port and
 * resolves once it listens; the environment is this process's, with PORT=0, HOST=127.0.0.1,
 * LOG_LEVEL=info and then `env` on top. A process that exits or stays silent past `timeoutMs` is
 * stopped and the error carries its output.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 20_000, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  let output = '';
  const started = performance.now();
  const inherited = { ...process.env };
  for (const key of options.withoutEnv ?? []) delete inherited[key];
  const command = options.command ?? { file: process.execPath, args: [options.script ?? resolve(import.meta.dirname, '../../dist/server.js')] };
  // The server looks for ffmpeg and pocketsphinx on its PATH. Node started directly needs no PATH,
  // so TEST_SYSTEM_PATH (docs/testing.md) becomes it and hides them from the server as from the
  // tests; `npm start` needs a shell from PATH and keeps the real one.
  const hidden = !options.command && process.env.TEST_SYSTEM_PATH !== undefined ? { PATH: process.env.TEST_SYSTEM_PATH } : {};
  const child: ChildProcess = spawn(command.file, command.args, {
    env: { ...inherited, ...hidden, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    // Its own process group, stopped whole: `npm start` runs the server as npm's child, which
    // outlived a SIGTERM sent to npm alone (orphaned servers piled up, one per test run).
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    }
    const code = await exited;
    // `npm start` exits before its child, the server, has finished shutting down (Node 22 writes
    // its compile cache then): a test that removes the directory next raced it (ENOTEMPTY).
    if (child.pid !== undefined) await groupGone(child.pid);
    return code;
  };
  try {
    const baseUrl = await waitFor(
      () => {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server exited');
        const url = LISTENING.exec(output)?.[1];
        return url !== undefined && (options.ready?.(output) ?? true) ? url : undefined;
      },
      { timeoutMs, what: 'the server to listen' },
    );
    return { baseUrl, readyMs: performance.now() - started, child, output: () => output, exited, stop };
  } catch (error) {
    await stop();
    throw new Error(`the server did not start (${(error as Error).message}):\n${output}`, { cause: error });
  }
}
