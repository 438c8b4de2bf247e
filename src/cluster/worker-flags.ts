/**
 * V8 runs garbage collection on helper threads besides the main one. When the workers already keep
 * every core busy those helpers have no core to run on: a worker's collection then waits for them,
 * and every request queued on that worker waits with it. Measured with WORKERS=2 on 2 cores under
 * 32 connections, collecting on the main thread alone raised list throughput by about 10% and cut
 * its p99 from about 22 to 18 ms (README, Performance). With cores to spare the helpers help, so
 * they stay on.
 */
export const SINGLE_THREADED_GC = '--single-threaded-gc';

/** The Node.js flags to start a worker with: the primary's own, after the GC choice so they win. */
export function workerExecArgv(workers: number, cores: number, primaryExecArgv: readonly string[]): string[] {
  return workers >= cores ? [SINGLE_THREADED_GC, ...primaryExecArgv] : [...primaryExecArgv];
}
