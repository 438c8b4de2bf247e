import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { signalPid, spawnTracked } from './lifecycle.js';
import { clockTicksPerSecond, processTree, readCpuTicks, readMemory } from './proc.js';
import { repoRoot } from './paths.js';

/*
 * One server under test: the service (`node dist/server.js`) or the baseline
 * (`node bench/baseline/server.mjs`), or either through `npm start`, on 127.0.0.1 with its output going to a log file, not to a
 * terminal or a pipe this process would have to drain. Start-up is timed from spawn to the first
 * 200 from /readyz, polled every 10 ms; resident memory is sampled from /proc every 100 ms, summed
 * over the server's processes (a cluster's primary and workers).
 */

export type Side = 'service' | 'baseline';

export interface TargetSpec {
  side: Side;
  /** Script and arguments for node, relative to the repository root (or to `cwd`); with `command`, its arguments. */
  args: string[];
  /** What to run instead of this node (`npm`, for start-up through `npm start`). */
  command?: string;
  /** Where to run it; the repository root by default. */
  cwd?: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
}

export interface StoppedTarget {
  /** Highest summed VmRSS seen by the sampler, in kB. */
  peakRssKb: number;
  /** Summed VmHWM just before the stop (each process's own peak; an upper bound of the true summed peak). */
  hwmKb: number;
  logBytes: number;
}

export interface RunningTarget {
  side: Side;
  url: string;
  pid: number;
  readyMs: number;
  rssAtReadyKb: number;
  /** CPU time the server's processes have used so far, in milliseconds. */
  cpuMs(): number;
  /** Waits (bounded) until the server uses under 5 % of a core, so its background work does not load the other side's run. */
  waitQuiet(maxMs: number): Promise<boolean>;
  /** Starts a memory window: resets each process's VmHWM (clear_refs) and answers the summed VmRSS now, in kB. */
  markMemory(): number;
  /** The highest summed RSS since markMemory(): the sampler's peak or the summed VmHWM, whichever is higher, in kB. */
  memoryPeakSinceMark(): number;
  stop(): Promise<StoppedTarget>;
}

const READY_POLL_MS = 10;
const READY_TIMEOUT_MS = 60_000;
const READY_REQUEST_TIMEOUT_MS = 1_000;
const SAMPLE_MS = 100;
const TREE_RESCAN_SAMPLES = 20;
const STOP_TIMEOUT_MS = 15_000;
const QUIET_WINDOW_MS = 200;
const LOG_TAIL_BYTES = 4_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

function logTail(file: string): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text.slice(-LOG_TAIL_BYTES);
  } catch {
    return '(no log)';
  }
}

async function readyStatus(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(READY_REQUEST_TIMEOUT_MS) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined; // not listening yet
  }
}

export async function startTarget(spec: TargetSpec): Promise<RunningTarget> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fd = openSync(spec.logFile, 'w');
  const started = performance.now();
  const child = spawnTracked(spec.command ?? process.execPath, spec.args, {
    cwd: spec.cwd ?? repoRoot(),
    env: { ...spec.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${spec.side}: could not start ${spec.command ?? 'node'} ${spec.args.join(' ')}`);
  let exited = child.exitCode !== null;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });

  let pids = [pid];
  let peakRssKb = 0;
  let windowPeakKb = 0;
  let samples = 0;
  const sample = () => {
    if (samples++ % TREE_RESCAN_SAMPLES === 0 && !exited) pids = processTree(pid);
    const { rssKb } = readMemory(pids);
    if (rssKb > peakRssKb) peakRssKb = rssKb;
    if (rssKb > windowPeakKb) windowPeakKb = rssKb;
    return rssKb;
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  sampler.unref();

  async function stop(): Promise<StoppedTarget> {
    clearInterval(sampler);
    if (!exited) {
      pids = processTree(pid!);
      sample();
    }
    const { hwmKb } = readMemory(pids);
    if (!exited) {
      signalPid(pid!, 'SIGTERM');
      const outcome = await Promise.race([exit.then(() => 'exited' as const), sleep(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
      if (outcome === 'timeout') {
        for (const p of pids) signalPid(p, 'SIGKILL');
        await exit;
      }
    }
    // A worker outlives its primary only briefly (it stops on disconnect); make sure.
    for (const p of pids.slice(1)) signalPid(p, 'SIGKILL');
    let logBytes = 0;
    try {
      logBytes = statSync(spec.logFile).size;
    } catch {
      // already gone
    }
    rmSync(spec.logFile, { force: true });
    return { peakRssKb, hwmKb, logBytes };
  }

  let readyMs: number | undefined;
  for (let waited = 0; waited < READY_TIMEOUT_MS; waited += READY_POLL_MS) {
    if (exited) break;
    if ((await readyStatus(url)) === 200) {
      readyMs = performance.now() - started;
      break;
    }
    await sleep(READY_POLL_MS);
  }
  if (readyMs === undefined) {
    const tail = logTail(spec.logFile);
    await stop();
    throw new Error(
      `${spec.side} ${exited ? `exited (${child.exitCode ?? child.signalCode})` : `not ready after ${READY_TIMEOUT_MS / 1000} s`}; log tail:\n${tail}`,
    );
  }
  pids = processTree(pid);
  const rssAtReadyKb = readMemory(pids).rssKb;
  if (rssAtReadyKb > peakRssKb) peakRssKb = rssAtReadyKb;

  const cpuMs = () => (readCpuTicks(exited ? [] : pids) * 1000) / clockTicksPerSecond();

  return {
    side: spec.side,
    url,
    pid,
    readyMs,
    rssAtReadyKb,
    cpuMs,
    async waitQuiet(maxMs) {
      const threshold = QUIET_WINDOW_MS * 0.05;
      for (let waited = 0; waited < maxMs; waited += QUIET_WINDOW_MS) {
        const before = cpuMs();
        await sleep(QUIET_WINDOW_MS);
        if (cpuMs() - before <= threshold) return true;
      }
      return false;
    },
    markMemory() {
      pids = processTree(pid);
      // "5" resets the peak resident set size (proc(5), clear_refs); a process that refuses keeps its lifetime peak.
      for (const p of pids) {
        try {
          writeFileSync(`/proc/${p}/clear_refs`, '5');
        } catch {
          // not ours, or gone
        }
      }
      windowPeakKb = 0;
      return sample();
    },
    memoryPeakSinceMark() {
      sample();
      return Math.max(windowPeakKb, readMemory(pids).hwmKb);
    },
    stop,
  };
}
