import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One turn of a server's event loop in which its main thread ran at least 2 ms (bench/loop-stretch-probe.ts). */
export interface LoopStretch {
  /** Date.now() at the turn that ended it. */
  at: number;
  cpu_ms: number;
}

/**
 * The stretches every probed process of `dir` wrote, ended within [from, to]; undefined when no
 * process wrote (the probe did not run: not Linux, or not loaded), so a missing probe never reads as
 * a loop that never stalled.
 */
export function readStretches(dir: string, from: number, to: number): LoopStretch[] | undefined {
  if (!existsSync(dir)) return undefined;
  const names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  if (names.length === 0) return undefined;
  return names
    .flatMap((name) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LoopStretch),
    )
    .filter((s) => s.at >= from && s.at <= to);
}
