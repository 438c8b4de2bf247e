import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface ServerProcess {
  baseUrl: string;
  /** From spawn to "Server listening". */
  readyMs: number;
  output(): string;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** Working directory (where `.env` and a relative sqlite: path are found); this repository by default. */
  cwd?: string;
  /** The server script; dist/server.js of this repository by default. */
  script?: string;
  /** Keys of this process's environment left out of the child's (to test what a file sets). */
  withoutEnv?: string[];
}

/** dist/server.js (built by `npm test`) on loopback with an ephemeral port; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 20_000, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  let output = '';
  const started = performance.now();
  const inherited = { ...process.env };
  for (const key of options.withoutEnv ?? []) delete inherited[key];
  const child: ChildProcess = spawn(process.execPath, [options.script ?? resolve(import.meta.dirname, '../../dist/server.js')], {
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const baseUrl = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (baseUrl) return { baseUrl, readyMs: performance.now() - started, output: () => output, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
