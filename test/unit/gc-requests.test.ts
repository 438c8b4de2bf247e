import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { COLLECT_EVERY_BYTES, COLLECT_FULLY_EVERY_ROWS, noteBulkRows, notePassedBytes } from '../../src/lib/gc-requests.js';

const CHUNK = 64 * 1024;
const PASSED = 64 * 1024 * 1024;

/** Collections of `kind` V8 reports while `run` goes on (the observer's entries arrive after it). */
async function collectionsDuring(kind: number, run: () => void): Promise<number> {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return seen.filter((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === kind).length;
}

describe('collections asked for by bulk work (decision 0110)', () => {
  it('keeps the freed chunks of a 64 MiB stream under a few MiB, by a young collection every few MiB passed', async () => {
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const collections = await collectionsDuring(constants.NODE_PERFORMANCE_GC_MINOR, () => {
      for (let passed = 0; passed < PASSED; passed += CHUNK) {
        // A new backing store per chunk, as a socket or file read makes, dropped once handed on.
        const chunk = Buffer.allocUnsafeSlow(CHUNK);
        chunk[0] = 1;
        notePassedBytes(chunk.length);
        if (passed % (1024 * 1024) === 0) peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
      }
    });
    // Left to itself V8 collects these only when they reach 32 MiB: two or three times in 64 MiB.
    expect(collections).toBeGreaterThanOrEqual(PASSED / COLLECT_EVERY_BYTES - 2);
    // At most the chunks since the last collection and those of the one before, if its sweep is still going.
    expect(peak).toBeLessThan(3 * COLLECT_EVERY_BYTES);
  });

  it('asks for a full collection once per COLLECT_FULLY_EVERY_ROWS rows of a bulk write, and none before', async () => {
    const batch = 500;
    const major = constants.NODE_PERFORMANCE_GC_MAJOR;
    // Whatever an earlier test left counted is used up first, so the count below starts at zero.
    expect(await collectionsDuring(major, () => noteBulkRows(COLLECT_FULLY_EVERY_ROWS))).toBe(1);
    expect(await collectionsDuring(major, () => noteBulkRows(COLLECT_FULLY_EVERY_ROWS - batch))).toBe(0);
    const collections = await collectionsDuring(major, () => {
      for (let rows = 0; rows < 4 * COLLECT_FULLY_EVERY_ROWS; rows += batch) noteBulkRows(batch);
    });
    expect(collections).toBe(4);
  });

  it('does not leave `gc` behind for code that runs later in a new context', async () => {
    notePassedBytes(COLLECT_EVERY_BYTES);
    const { runInNewContext } = await import('node:vm');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
