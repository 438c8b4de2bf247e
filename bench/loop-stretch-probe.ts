import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopStretch } from './loop-stretches.js';

/*
 * Loaded into a server by `node --import` (bench:organize): how long the main thread keeps the CPU
 * between two turns of its event loop, in CPU time, not wall time. A 1 ms timer reads the main
 * thread's own run time (`/proc/<pid>/task/<pid>/schedstat`, nanoseconds, Linux) at each firing;
 * what it ran since the previous firing is the work that made every other request wait. On a shared
 * machine the wall-clock delay of a stretch is its CPU time stretched by whatever else runs; the CPU
 * time is what a quiet machine would show as the stall. The encoder's worker thread and the garbage
 * collector's helper threads are not the main thread and are not counted; a collection pause on the
 * main thread is. Every stretch over STRETCH_FLOOR_MS is appended to `<dir>/<pid>.jsonl` with the wall
 * time it ended, so the bench can pick those within the window it measures.
 */

const STRETCH_FLOOR_MS = 2;
const WRITE_EVERY_MS = 250;

function startProbe(dir: string): void {
  const schedstat = `/proc/${process.pid}/task/${process.pid}/schedstat`;
  const cpuNs = (): number => Number(readFileSync(schedstat, 'latin1').split(' ', 1)[0]);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.jsonl`);
  // Created at once: a probe that ran and saw no stretch is told apart from one that never ran.
  writeFileSync(file, '');
  let fresh: LoopStretch[] = [];
  let last = cpuNs();
  const tick = setInterval(() => {
    const now = cpuNs();
    const ms = (now - last) / 1e6;
    last = now;
    if (ms >= STRETCH_FLOOR_MS) fresh.push({ at: Date.now(), cpu_ms: Math.round(ms * 100) / 100 });
  }, 1);
  // Only the new stretches, appended: the probe's own writes stay out of the turns it measures.
  const write = (): void => {
    if (fresh.length === 0) return;
    appendFileSync(file, fresh.map((s) => `${JSON.stringify(s)}\n`).join(''));
    fresh = [];
  };
  const flush = setInterval(write, WRITE_EVERY_MS);
  tick.unref();
  flush.unref();
  process.on('exit', write);
}

const dir = process.env['BENCH_LOOP_PROBE_DIR'];
if (dir && process.platform === 'linux') startProbe(dir);
