import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchDialect } from './databases.js';
import type { HttpAnswer } from './http-client.js';
import { installSignalHandlers, interrupted, onCleanup, runCleanups, stopTracked } from './lifecycle.js';
import { startScenarioServer, type ScenarioServer } from './scenario-server.js';
import { readScenarioSettings, scenarioInteger } from './settings.js';
import { latencySummary, median, percentile, round, roundRatios, spread, type Spread } from './stats.js';

/*
 * npm run bench:files (issue 50's speed targets): through HTTP against `node dist/server.js` on a
 * fresh database and a fresh FILES_DIR, one Pro user. A 25 MiB upload and its download, repeated,
 * with the growth of the server's RSS over each transfer (sampled from /proc, and each process's
 * VmHWM reset before it), its median and max; a 100-line batch capture; and the zip export of 1,000
 * items with 1,000 distinct files, beside a plain read of the same files from FILES_DIR with fs
 * streams, alternated round by round so both see the same machine. MB is 10^6 bytes. Time from the
 * client on loopback, so a loaded machine adds to it: docs/performance.md says how to read it.
 * BENCH_FILES_NODE_OPTIONS is passed to the server as NODE_OPTIONS (e.g. `--import` of a sampler
 * of process.memoryUsage(), as decision 0104 did; --cpu-prof is not allowed there).
 */

const MIB = 1024 * 1024;
const UPLOAD_BYTES = 25 * MIB;
const BATCH_LINES = 100;
const QUIET_MAX_MS = 60_000;
const TRANSFER_TIMEOUT_MS = 5 * 60_000;
const BOUNDARY = 'bench-files-boundary-7d1f';

const log = (line: string) => process.stdout.write(`${line}\n`);
const mbPerS = (bytes: number, ms: number) => round(bytes / 1e6 / (ms / 1000), 1);
const mib = (kb: number) => round(kb / 1024, 1);
/** A median and its spread as `median (min–max)`. */
const range = (s: Spread) => `${s.median} (${s.min}–${s.max})`;
/** spread() with its median rounded like its ends (an even count's median is a mean). */
const spreadOf = (values: readonly number[]): Spread => {
  const s = spread(values);
  return { ...s, median: round(s.median, 2) };
};

function multipart(bytes: Buffer, filename: string): { body: Buffer; headers: Record<string, string> } {
  const head = Buffer.from(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return { body: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

function expectStatus(answer: HttpAnswer, status: number, what: string): HttpAnswer {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer;
}

async function newItem(server: ScenarioServer, title: string): Promise<string> {
  const answer = await server.api.call({
    method: 'POST',
    path: '/api/v1/capture',
    headers: { ...server.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text: title }),
  });
  return (JSON.parse(expectStatus(answer, 201, 'capture').text) as { id: string }).id;
}

async function upload(server: ScenarioServer, itemId: string, bytes: Buffer, filename: string): Promise<{ id: string; ms: number }> {
  const form = multipart(bytes, filename);
  const answer = await server.api.call({
    method: 'POST',
    path: `/api/v1/items/${itemId}/attachments`,
    headers: { ...server.auth, ...form.headers },
    body: form.body,
    timeoutMs: TRANSFER_TIMEOUT_MS,
  });
  const { attachment } = JSON.parse(expectStatus(answer, 201, 'upload').text) as { attachment: { id: string } };
  return { id: attachment.id, ms: answer.ms };
}

/** p50/p99 of MB/s over the samples (the p99 of a speed is its slow end: the 1st percentile). */
const speeds = (bytes: number, ms: readonly number[]) => {
  const rates = ms.map((m) => mbPerS(bytes, m));
  return { ...latencySummary(ms), p50_mb_s: round(median(rates)), p99_mb_s: percentile(rates, 1) };
};

/** 25 MiB up and down `samples` times; the RSS growth is over each transfer (VmHWM reset before it), its median and max. */
async function transfers(server: ScenarioServer, samples: number) {
  const itemId = await newItem(server, 'big files');
  const base = randomBytes(UPLOAD_BYTES);
  const up: number[] = [];
  const upGrowth: number[] = [];
  const ids: string[] = [];
  let upCpu = 0;
  for (let i = 0; i < samples; i += 1) {
    // A distinct content each time: every sample writes a whole new file.
    base.writeUInt32BE(i, 0);
    await server.target.waitQuiet(QUIET_MAX_MS);
    const rss = server.target.markMemory();
    const cpu = server.target.cpuMs();
    const sent = await upload(server, itemId, base, `big-${i}.bin`);
    upCpu += server.target.cpuMs() - cpu;
    upGrowth.push(mib(Math.max(0, server.target.memoryPeakSinceMark() - rss)));
    up.push(sent.ms);
    ids.push(sent.id);
  }

  const down: number[] = [];
  const downGrowth: number[] = [];
  let downCpu = 0;
  for (let i = 0; i < samples; i += 1) {
    await server.target.waitQuiet(QUIET_MAX_MS);
    const rss = server.target.markMemory();
    const cpu = server.target.cpuMs();
    const answer = await server.api.call({
      method: 'GET',
      path: `/api/v1/attachments/${ids[i % ids.length]}`,
      headers: server.auth,
      discardBody: true,
      timeoutMs: TRANSFER_TIMEOUT_MS,
    });
    downCpu += server.target.cpuMs() - cpu;
    downGrowth.push(mib(Math.max(0, server.target.memoryPeakSinceMark() - rss)));
    expectStatus(answer, 200, 'download');
    if (answer.bytes !== UPLOAD_BYTES) throw new Error(`the download answered ${answer.bytes} bytes, not ${UPLOAD_BYTES}`);
    down.push(answer.ms);
  }
  return {
    upload: { ...speeds(UPLOAD_BYTES, up), rss_growth_mib: spreadOf(upGrowth), server_cpu_ms: round(upCpu / samples) },
    download: { ...speeds(UPLOAD_BYTES, down), rss_growth_mib: spreadOf(downGrowth), server_cpu_ms: round(downCpu / samples) },
  };
}

async function batch(server: ScenarioServer, samples: number) {
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const text = Array.from({ length: BATCH_LINES }, (_, n) => `- task ${i}.${n} call Sam tomorrow 5pm #errands`).join('\n');
    const answer = await server.api.call({
      method: 'POST',
      path: '/api/v1/capture/batch',
      headers: { ...server.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    const { items } = JSON.parse(expectStatus(answer, 201, 'batch capture').text) as { items: unknown[] };
    if (items.length !== BATCH_LINES) throw new Error(`the batch made ${items.length} items, not ${BATCH_LINES}`);
    times.push(answer.ms);
  }
  return latencySummary(times);
}

/** 1,000 items, one distinct file each: 1 KiB up to 128 KiB, so the total is about 64 MiB. */
async function seedExport(server: ScenarioServer, items: number): Promise<number> {
  let bytes = 0;
  for (let start = 0; start < items; start += BATCH_LINES) {
    const count = Math.min(BATCH_LINES, items - start);
    const text = Array.from({ length: count }, (_, n) => `- exported ${start + n}`).join('\n');
    const answer = await server.api.call({
      method: 'POST',
      path: '/api/v1/capture/batch',
      headers: { ...server.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ text, parse: false }),
    });
    const made = (JSON.parse(expectStatus(answer, 201, 'batch capture').text) as { items: { id: string }[] }).items;
    for (const [n, item] of made.entries()) {
      const size = 1024 * (1 + ((start + n) % 128));
      bytes += size;
      await upload(server, item.id, randomBytes(size), `file-${start + n}.bin`);
    }
  }
  return bytes;
}

/** Reads every content under FILES_DIR with fs streams, one after the other as the export does. */
async function readStore(filesDir: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  let bytes = 0;
  for (const folder of readdirSync(filesDir)) {
    if (folder === 'tmp' || !statSync(join(filesDir, folder)).isDirectory()) continue;
    for (const name of readdirSync(join(filesDir, folder))) {
      for await (const chunk of createReadStream(join(filesDir, folder, name))) bytes += (chunk as Buffer).length;
    }
  }
  return { bytes, ms: performance.now() - started };
}

async function exportZip(server: ScenarioServer, filesDir: string, samples: number, items: number) {
  const fileBytes = await seedExport(server, items);
  const disk: number[] = [];
  const zip: number[] = [];
  let zipBytes = 0;
  await server.target.waitQuiet(QUIET_MAX_MS);
  const rss = server.target.markMemory();
  let exportCpuMs = 0;
  for (let i = 0; i < samples; i += 1) {
    // Alternated: the plain read and the export see the same machine, and the same page cache.
    const read = await readStore(filesDir);
    disk.push(mbPerS(read.bytes, read.ms));
    const cpuBefore = server.target.cpuMs();
    const answer = await server.api.call({
      method: 'GET',
      path: '/api/v1/export?format=zip',
      headers: server.auth,
      discardBody: true,
      timeoutMs: TRANSFER_TIMEOUT_MS,
    });
    exportCpuMs += server.target.cpuMs() - cpuBefore;
    expectStatus(answer, 200, 'export');
    zipBytes = answer.bytes;
    zip.push(mbPerS(answer.bytes, answer.ms));
  }
  const growth = mib(Math.max(0, server.target.memoryPeakSinceMark() - rss));
  return {
    items,
    files: items,
    file_bytes: fileBytes,
    zip_bytes: zipBytes,
    rounds: samples,
    zip_mb_s: spreadOf(zip),
    disk_read_mb_s: spreadOf(disk),
    // Each export over the plain read just before it: the two saw the same machine.
    zip_over_disk: spreadOf(roundRatios(zip, disk).map((r) => round(r, 2))),
    rss_growth_mib: growth,
    server_cpu_ms: round(exportCpuMs / samples),
  };
}

async function measure(database: BenchDialect, o: { samples: number; exportSamples: number; exportItems: number; pgAdminUrl: string }) {
  const filesDir = mkdtempSync(join(tmpdir(), 'inbox-bench-files-'));
  const removeFiles = onCleanup(`remove ${filesDir}`, () => rmSync(filesDir, { recursive: true, force: true }));
  const server = await startScenarioServer({
    dialect: database,
    workers: 1,
    pgAdminUrl: o.pgAdminUrl,
    label: 'files',
    env: { FILES_DIR: filesDir, ...(process.env.BENCH_FILES_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_FILES_NODE_OPTIONS } : {}) },
  });
  try {
    // The export first, while the account holds only its 1,000 items and files.
    const exported = await exportZip(server, filesDir, o.exportSamples, o.exportItems);
    log(
      `[${database}] zip export of ${exported.items} items, ${exported.files} files (${round(exported.file_bytes / MIB, 1)} MiB of files, ${round(exported.zip_bytes / MIB, 1)} MiB of zip): ` +
        `${range(exported.zip_mb_s)} MB/s (${exported.server_cpu_ms} ms server CPU each) beside a plain read at ${range(exported.disk_read_mb_s)} MB/s, ` +
        `ratio ${range(exported.zip_over_disk)} over ${exported.rounds} rounds, RSS +${exported.rss_growth_mib} MiB`,
    );
    await server.target.waitQuiet(QUIET_MAX_MS);
    const moved = await transfers(server, o.samples);
    log(
      `[${database}] 25 MiB upload: p50 ${moved.upload.p50_mb_s} MB/s, p99 ${moved.upload.p99_mb_s} MB/s, RSS +${range(moved.upload.rss_growth_mib)} MiB; ` +
        `download: p50 ${moved.download.p50_mb_s} MB/s, p99 ${moved.download.p99_mb_s} MB/s, RSS +${range(moved.download.rss_growth_mib)} MiB per transfer`,
    );
    await server.target.waitQuiet(QUIET_MAX_MS);
    const batched = await batch(server, o.samples);
    log(`[${database}] batch capture of ${BATCH_LINES} lines: p50 ${batched.p50_ms} ms, p99 ${batched.p99_ms} ms`);
    const { peakRssMb } = await server.stop();
    return {
      database,
      upload_25mib: moved.upload,
      download_25mib: moved.download,
      batch_100: batched,
      export_zip: exported,
      peak_rss_mb: peakRssMb,
      targets: {
        upload_100mb_s: moved.upload.p50_mb_s >= 100,
        download_100mb_s: moved.download.p50_mb_s >= 100,
        // Every transfer, not the median: the worst of the series is what a server must have room for.
        transfer_rss_under_16mib: moved.upload.rss_growth_mib.max < 16 && moved.download.rss_growth_mib.max < 16,
        ...(database === 'sqlite' ? { batch_100_under_200ms: batched.p99_ms < 200 } : {}),
        // "At disk speed": at least 0.9 of the plain read's MB/s, the median of the rounds' ratios.
        export_at_disk_speed: exported.zip_over_disk.median >= 0.9,
        export_rss_under_16mib: exported.rss_growth_mib < 16,
      },
    };
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  } finally {
    await removeFiles();
  }
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readScenarioSettings(process.env);
  const samples = scenarioInteger(process.env, 'BENCH_FILES_SAMPLES', 10);
  const exportSamples = scenarioInteger(process.env, 'BENCH_FILES_EXPORT_SAMPLES', 5);
  const exportItems = scenarioInteger(process.env, 'BENCH_FILES_EXPORT_ITEMS', 1000);
  const loadBefore = loadavg().map((l) => round(l, 2));
  log(`bench:files: ${samples} samples of each transfer and batch, ${exportSamples} exports of ${exportItems} items; load average ${loadBefore.join(' ')}`);
  const rows = [];
  for (const database of settings.databases) {
    const row = await measure(database, { samples, exportSamples, exportItems, pgAdminUrl: settings.pgAdminUrl });
    rows.push(row);
    log(`[${database}] targets: ${JSON.stringify(row.targets)}`);
  }
  log(JSON.stringify({ bench: 'files', loadavg_before: loadBefore, loadavg_after: loadavg().map((l) => round(l, 2)), rows }));
}

if (process.argv[1]?.endsWith('files.js')) {
  main()
    .catch((error: unknown) => {
      if (interrupted()) return;
      process.stderr.write(`bench:files: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(async () => {
      await stopTracked(5_000);
      await runCleanups(log);
    });
}
