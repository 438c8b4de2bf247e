import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/*
 * Everything the bench starts is stopped by pid, whatever way the run ends: normally (main's
 * finally), on an error, or on Ctrl-C / SIGTERM. Children are tracked here; resources that outlive
 * a step (temporary directories, PostgreSQL databases) register a cleanup, run once, newest first.
 */

const live = new Map<number, ChildProcess>();
interface CleanupEntry {
  name: string;
  run: () => Promise<void> | void;
  /** Set when the cleanup starts; whoever comes second waits for the same promise. */
  started?: Promise<void>;
}
const cleanups: CleanupEntry[] = [];
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

function signalTracked(signal: NodeJS.Signals): void {
  for (const pid of live.keys()) signalPid(pid, signal);
}

/** Registers a cleanup; the returned function runs it now (once; a second call waits for the first). */
export function onCleanup(name: string, run: () => Promise<void> | void): () => Promise<void> {
  const entry: CleanupEntry = { name, run };
  cleanups.push(entry);
  return () => start(entry);
}

function start(entry: CleanupEntry): Promise<void> {
  entry.started ??= Promise.resolve().then(entry.run);
  return entry.started;
}

/**
 * Runs every cleanup, newest first, and waits for those already under way (an interrupted run's
 * own finally blocks may have started some); one failing does not stop the others.
 */
export async function runCleanups(log: (line: string) => void): Promise<void> {
  for (const entry of [...cleanups].reverse()) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        start(entry),
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
let stopping = false;

/** Whether a signal has asked the run to stop (errors after that are its echo, not a failure). */
export const interrupted = (): boolean => stopping;

export function installSignalHandlers(log: (line: string) => void): void {
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
