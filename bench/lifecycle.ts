import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/*
 * Everything the bench starts is stopped by pid, whatever way the run ends: normally (main's
 * finally), on an error, or on Ctrl-C / SIGTERM. Children are tracked here; resources that outlive
 * a step (temporary directories, PostgreSQL databases) register a cleanup, run once, newest first.
 */

const live = new Map<number, ChildProcess>();
const cleanups: Array<{ name: string; run: () => Promise<void> | void; done: boolean }> = [];
const CLEANUP_TIMEOUT_MS = 30_000;

/** spawn, remembering the child until it exits so an interrupted run can stop it. */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  const pid = child.pid;
  if (pid !== undefined) {
    live.set(pid, child);
    child.once('exit', () => live.delete(pid));
  }
  return child;
}

/** Sends `signal` to one pid, ignoring a process that is already gone. */
export function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export function signalTracked(signal: NodeJS.Signals): void {
  for (const pid of live.keys()) signalPid(pid, signal);
}

export const trackedCount = (): number => live.size;

/** Registers a cleanup; the returned function runs it now (once) and forgets it. */
export function onCleanup(name: string, run: () => Promise<void> | void): () => Promise<void> {
  const entry = { name, run, done: false };
  cleanups.push(entry);
  return async () => {
    if (entry.done) return;
    entry.done = true;
    await entry.run();
  };
}

/** Runs every cleanup not yet run, newest first; one failing does not stop the others. */
export async function runCleanups(log: (line: string) => void): Promise<void> {
  for (const entry of [...cleanups].reverse()) {
    if (entry.done) continue;
    entry.done = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(entry.run),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), CLEANUP_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      log(`cleanup "${entry.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stops every tracked child: SIGTERM, then SIGKILL for those still there after `graceMs`. */
export async function stopTracked(graceMs: number): Promise<void> {
  signalTracked('SIGTERM');
  for (let waited = 0; live.size > 0 && waited < graceMs; waited += 50) await sleep(50);
  signalTracked('SIGKILL');
}

/** Ctrl-C, SIGTERM, SIGHUP: stop the children, run the cleanups, exit 130. A second signal exits at once. */
export function installSignalHandlers(log: (line: string) => void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      signalTracked('SIGKILL');
      process.exit(130);
    }
    stopping = true;
    log(`\n${signal}: stopping ${live.size} child process(es) and cleaning up`);
    void stopTracked(5_000)
      .then(() => runCleanups(log))
      .finally(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, handler);
}
