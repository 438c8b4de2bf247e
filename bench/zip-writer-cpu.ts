import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { zipStream } from '../src/modules/transfer/zip-writer.js';
import { round, spread } from './stats.js';

/*
 * Decision 0104's measurement, in one process so the figures are CPU, not a loaded machine's wall
 * time: the export zip of 1,000 files of 1 to 128 KiB (as bench:files seeds) and a 1,000-item
 * document, written by yazl as the export did before (addReadStream for the document, addFile
 * stored for each file) and by zip-writer.ts, beside a plain read of the same files with fs
 * streams, alternated for BENCH_ZIP_ROUNDS (7) rounds. Output goes to a sink that drops it.
 * Run after `tsc -p tsconfig.bench.json`: node dist-bench/bench/zip-writer-cpu.js
 */

const FILES = 1000;
const ROUNDS = Number(process.env.BENCH_ZIP_ROUNDS ?? 7);

async function* documentText(): AsyncGenerator<string> {
  yield '{"format":"capture-inbox","version":1,"items":[';
  for (let n = 0; n < FILES; n += 1) {
    const item = { id: `item-${n}`, title: `exported ${n}`, notes: null, tags: [], attachments: [{ id: `a-${n}`, filename: `file-${n}.bin`, size: 1024 }] };
    yield `${n ? ',' : ''}\n${JSON.stringify(item)}`;
  }
  yield '\n]}\n';
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
    writev(_chunks, done) {
      done();
    },
  });

function yazlZip(paths: readonly string[]): Readable {
  const zip = new ZipFile();
  zip.addReadStream(Readable.from(documentText()), 'export.json');
  paths.forEach((path, n) => zip.addFile(path, `files/${n}`, { compress: false }));
  zip.end();
  return zip.outputStream as Readable;
}

const writerZip = (paths: readonly string[]): Readable =>
  zipStream(
    { name: 'export.json', source: documentText() },
    paths.map((path, n) => ({ name: `files/${n}`, path })),
  );

async function plainRead(paths: readonly string[]): Promise<void> {
  for (const path of paths) for await (const chunk of createReadStream(path)) void chunk;
}

async function measure(run: () => Promise<void>): Promise<{ cpuMs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zip-writer-cpu-'));
  try {
    const paths: string[] = [];
    let bytes = 0;
    for (let n = 0; n < FILES; n += 1) {
      const size = 1024 * (1 + (n % 128));
      bytes += size;
      paths.push(join(dir, `f${n}`));
      writeFileSync(paths[n]!, randomBytes(size));
    }
    const variants: Record<string, () => Promise<void>> = {
      read: () => plainRead(paths),
      yazl: () => pipeline(yazlZip(paths), sink()),
      writer: () => pipeline(writerZip(paths), sink()),
    };
    const cpu: Record<string, number[]> = { read: [], yazl: [], writer: [] };
    const wall: Record<string, number[]> = { read: [], yazl: [], writer: [] };
    for (const name of Object.keys(variants)) await variants[name]!();
    const loadBefore = loadavg()[0]!;
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const name of Object.keys(variants)) {
        const m = await measure(variants[name]!);
        cpu[name]!.push(round(m.cpuMs));
        wall[name]!.push(round(m.wallMs));
      }
    }
    const out = Object.keys(variants).map((name) => ({ variant: name, cpu_ms: spread(cpu[name]!), wall_ms: spread(wall[name]!) }));
    for (const row of out)
      process.stdout.write(
        `${row.variant.padEnd(7)} CPU ${row.cpu_ms.median} ms (${row.cpu_ms.min}–${row.cpu_ms.max}), wall ${row.wall_ms.median} ms (${row.wall_ms.min}–${row.wall_ms.max})\n`,
      );
    process.stdout.write(
      `${JSON.stringify({ bench: 'zip-writer-cpu', files: FILES, mib: round(bytes / 1024 / 1024, 1), rounds: ROUNDS, loadavg: [round(loadBefore, 2), round(loadavg()[0]!, 2)], rows: out })}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
