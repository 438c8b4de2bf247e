import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest folder above this file that holds bench/baseline/server.mjs.
 * The bench runs compiled from dist-bench/bench/, where the baseline's .mjs files are not copied.
 */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 8; depth += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bench', 'baseline', 'server.mjs'))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error('cannot find the repository root (a folder with package.json and bench/baseline/server.mjs)');
}

export const baselineDir = (): string => join(repoRoot(), 'bench', 'baseline');
