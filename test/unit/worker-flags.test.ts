import { describe, expect, it } from 'vitest';
import { SINGLE_THREADED_GC, workerExecArgv } from '../../src/cluster/worker-flags.js';

describe('workerExecArgv', () => {
  it('collects garbage on the main thread when the workers fill every core', () => {
    expect(workerExecArgv(2, 2, [])).toEqual([SINGLE_THREADED_GC]);
    expect(workerExecArgv(4, 2, [])).toEqual([SINGLE_THREADED_GC]);
  });

  it('keeps the parallel collector when cores are left over', () => {
    expect(workerExecArgv(2, 8, [])).toEqual([]);
  });

  it("keeps the primary's own flags, after the GC choice so an explicit flag wins", () => {
    expect(workerExecArgv(2, 2, ['--no-single-threaded-gc', '--max-old-space-size=512'])).toEqual([
      SINGLE_THREADED_GC,
      '--no-single-threaded-gc',
      '--max-old-space-size=512',
    ]);
    expect(workerExecArgv(1, 8, ['--enable-source-maps'])).toEqual(['--enable-source-maps']);
  });
});
