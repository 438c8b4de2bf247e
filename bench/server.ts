import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Limits no benchmark reaches, so the per-user rate limiter answers every request (and still runs). */
const NO_LIMIT = '1000000000';
const READY_ATTEMPTS = 150;
const READY_INTERVAL_MS = 100;
const STOP_TIMEOUT_MS = 15_000;

/** A port that was free a moment ago on loopback. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (!address || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < READY_ATTEMPTS; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(READY_INTERVAL_MS);
  }
  throw new Error(`server not ready after ${(READY_ATTEMPTS * READY_INTERVAL_MS) / 1000} s:\n${output()}`);
}

/**
 * Starts the real server (node dist/server.js) on 127.0.0.1 against `databaseUrl`. Request logging is
 * off (LOG_LEVEL=warn) so the figures measure the service, not a terminal; see the README.
 */
export async function startServer(databaseUrl: string, logLevel: string, workers: number): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: logLevel,
      WORKERS: String(workers),
      RATE_LIMIT_PRO_PER_MINUTE: NO_LIMIT,
      RATE_LIMIT_PRO_PER_DAY: NO_LIMIT,
      RATE_LIMIT_FREE_PER_MINUTE: NO_LIMIT,
      RATE_LIMIT_FREE_PER_DAY: NO_LIMIT,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Drain the output so the server never blocks on a full pipe; keep the tail for error messages.
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the server');

  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    process.kill(pid!, 'SIGTERM');
    const timer = new AbortController();
    const timeout = sleep(STOP_TIMEOUT_MS, 'timeout' as const, { signal: timer.signal }).catch(() => 'cancelled' as const);
    const outcome = await Promise.race([exited.then(() => 'exited' as const), timeout]);
    timer.abort();
    if (outcome === 'timeout') {
      process.kill(pid!, 'SIGKILL');
      await exited;
    }
  }

  try {
    await waitUntilReady(url, child, () => tail);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid, stop };
}
