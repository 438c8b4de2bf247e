import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { readStretches } from '../../bench/loop-stretches.js';

const work = mkdtempSync(join(tmpdir(), 'loop-probe-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The probe as node loads it in bench:organize, compiled from its TypeScript. */
function compiledProbe(): string {
  const source = readFileSync(join(import.meta.dirname, '../../bench/loop-stretch-probe.ts'), 'utf8');
  const file = join(work, 'probe.mjs');
  writeFileSync(file, transformSync(source, { loader: 'ts', format: 'esm' }).code);
  return file;
}

describe('the event-loop probe of bench:organize', () => {
  it.skipIf(process.platform !== 'linux')('records a turn by the CPU the main thread spent in it', () => {
    const dir = join(work, 'out');
    const script = join(work, 'busy.mjs');
    // 60 ms of this process's CPU in one callback, then a quiet turn before exit.
    writeFileSync(
      script,
      `setTimeout(() => { const s = process.cpuUsage(); for (;;) { const u = process.cpuUsage(s); if (u.user + u.system >= 60000) break; } }, 50);
       setTimeout(() => {}, 400);`,
    );
    const started = Date.now();
    execFileSync(process.execPath, ['--import', compiledProbe(), script], { env: { ...process.env, BENCH_LOOP_PROBE_DIR: dir }, timeout: 30_000 });
    const stretches = readStretches(dir, started, Date.now());
    expect(stretches).toBeDefined();
    const longest = Math.max(...stretches!.map((s) => s.cpu_ms));
    // Other threads' CPU counts towards process.cpuUsage, not towards the main thread's run time.
    expect(longest).toBeGreaterThan(40);
    expect(longest).toBeLessThan(100);
  });

  it('reads the turns within a window, and nothing at all where no probe ran', () => {
    const dir = join(work, 'files');
    expect(readStretches(dir, 0, Date.now())).toBeUndefined();
    mkdirSync(dir);
    expect(readStretches(dir, 0, Date.now())).toBeUndefined();
    writeFileSync(join(dir, '1.jsonl'), '{"at":100,"cpu_ms":3}\n{"at":200,"cpu_ms":25}\n');
    writeFileSync(join(dir, '2.jsonl'), '');
    writeFileSync(join(dir, '3.jsonl'), '{"at":150,"cpu_ms":7.5}\n');
    expect(readStretches(dir, 120, 250)).toEqual([
      { at: 200, cpu_ms: 25 },
      { at: 150, cpu_ms: 7.5 },
    ]);
  });
});
