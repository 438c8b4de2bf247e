import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** dist/server.js (built by `npm test`) on loopback with an ephemeral port; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['dist/server.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
    if (baseUrl) return { baseUrl, output: () => output, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
