import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSignalHandlers, interrupted, runCleanups, stopTracked } from './lifecycle.js';
import type { HttpClient } from './http-client.js';
import { startScenarioServer, type ScenarioServer } from './scenario-server.js';
import { readScenarioSettings, scenarioInteger } from './settings.js';
import { latencySummary, median, round } from './stats.js';
import { seedThemedItems, themedTitles } from './themed-items.js';
import type { BenchDialect } from './databases.js';
import { readStretches, type LoopStretch } from './loop-stretches.js';
import { onCleanup } from './lifecycle.js';

/*
 * npm run bench:organize (issue 52 item 3): organized captures with the local engine (sentence
 * encoder included) for a user with 2,000 items, on SQLite and PostgreSQL, WORKERS=1 and 2.
 * One capture at a time, organized and plain in turn (the same kind of text), so the difference of
 * their medians is what the decision costs; meanwhile a probe asks GET /healthz every few
 * milliseconds, and the server's own event-loop delay (prom-client's monitorEventLoopDelay, the
 * `nodejs_eventloop_lag_max_seconds` of GET /metrics, reset by each scrape) is read before and after.
 * Method and figures: docs/performance.md.
 */

const SEED = 52;
/** Organized captures before the measured ones, per server process: each worker loads its own encoder and models. */
const WARMUP_PER_WORKER = 10;
const PROBE_GAP_MS = 5;
const IDLE_MS = 2_000;
const API = '/api/v1';

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The server's longest event-loop delay since the last scrape, in ms (the metric is reset by each scrape). */
export function eventLoopLagMaxMs(metricsText: string): number | undefined {
  const line = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})?\s+([0-9.eE+-]+)\s*$/m.exec(metricsText);
  return line ? round(Number(line[1]) * 1000, 1) : undefined;
}

async function scrapeLagMax(api: HttpClient): Promise<number | undefined> {
  const answer = await api.call({ method: 'GET', path: '/metrics' });
  return answer.status === 200 ? eventLoopLagMaxMs(answer.text) : undefined;
}

/** GET /healthz one after another, PROBE_GAP_MS apart, until stopped; answers each request's latency. */
function startProbe(api: HttpClient): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    // Bounded by stop(): the scenario ends it when its captures are done.
    while (running) {
      const answer = await api.call({ method: 'GET', path: '/healthz' });
      if (answer.status !== 200) throw new Error(`/healthz answered ${answer.status}`);
      times.push(answer.ms);
      await sleep(PROBE_GAP_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

interface CaptureFigures {
  ms: number;
  routed: boolean;
}

async function capture(server: ScenarioServer, text: string, organize: boolean): Promise<CaptureFigures> {
  const answer = await server.api.call({
    method: 'POST',
    path: `${API}/capture`,
    headers: { ...server.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text, organize }),
  });
  if (answer.status !== 201) throw new Error(`capture (organize ${organize}) answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const body = JSON.parse(answer.text) as { ai: { applied?: string[] } | null };
  if (organize && body.ai === null) throw new Error('an organized capture came back with ai: null');
  return { ms: answer.ms, routed: body.ai?.applied?.includes('project_id') ?? false };
}

export interface OrganizeRow {
  database: BenchDialect;
  workers: number;
  items: number;
  first_organized_ms: number;
  organized: ReturnType<typeof latencySummary>;
  plain: ReturnType<typeof latencySummary>;
  /** Median organized minus median plain: what the decision adds to a capture. */
  decision_p50_ms: number;
  /**
   * The server's CPU (its processes' utime + stime, encoder thread included) while each organized
   * and each plain capture ran, per capture; the probe's share falls on both alike. The figure to
   * compare builds by on a loaded machine, where latency mostly measures the load.
   */
  cpu_organized_ms: number;
  cpu_plain_ms: number;
  routed_to_a_project: number;
  probe_idle: ReturnType<typeof latencySummary>;
  probe_during: ReturnType<typeof latencySummary>;
  loop_lag_max_idle_ms: number | null;
  loop_lag_max_during_ms: number | null;
  /**
   * The main thread's longest run between two turns of its event loop, in CPU ms
   * (bench/loop-stretch-probe.ts): the stall a quiet machine would show, whatever the load of this
   * one. Null where the probe cannot run (not Linux).
   */
  main_thread_longest_idle_ms: number | null;
  main_thread_longest_during_ms: number | null;
  /** Turns of the loop with over 20 ms of main-thread CPU during the captures. */
  main_thread_turns_over_20ms: number | null;
  peak_rss_mb: number;
  targets: { organized_p50_under_30ms: boolean; organized_p99_under_100ms: boolean; no_stall_over_20ms: boolean };
}

async function measure(database: BenchDialect, workers: number, items: number, captures: number, pgAdminUrl: string): Promise<OrganizeRow> {
  const probeDir = mkdtempSync(join(tmpdir(), 'inbox-bench-loop-'));
  const removeProbeDir = onCleanup(`remove ${probeDir}`, () => rmSync(probeDir, { recursive: true, force: true }));
  const server = await startScenarioServer({
    dialect: database,
    workers,
    pgAdminUrl,
    label: `organize_${workers}`,
    seed: (url, userId) => seedThemedItems(url, userId, items, SEED),
    env: { BENCH_LOOP_PROBE_DIR: probeDir },
    nodeArgs: [
      '--import',
      fileURLToPath(new URL('./loop-stretch-probe.js', import.meta.url)),
      // BENCH_ORGANIZE_PROFILE=dir: a V8 CPU profile of each server process, written when it stops.
      ...(process.env['BENCH_ORGANIZE_PROFILE'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_ORGANIZE_PROFILE']}`] : []),
    ],
  });
  try {
    const warmup = WARMUP_PER_WORKER * workers;
    const texts = themedTitles(warmup + 2 * captures + 1, SEED + 1, true).map((t) => t.title);
    let next = 0;
    const first = await capture(server, texts[next++]!, true);
    // Several at once, so that with WORKERS > 1 the connections (and the captures) reach every worker.
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let i = 0; i < WARMUP_PER_WORKER; i += 1) await capture(server, texts[next++]!, true);
      }),
    );

    await scrapeLagMax(server.api);
    const idleFrom = Date.now();
    const idleProbe = startProbe(server.api);
    await sleep(IDLE_MS);
    const probeIdle = await idleProbe.stop();
    const lagIdle = await scrapeLagMax(server.api);
    const idleTo = Date.now();

    const organized: number[] = [];
    const plain: number[] = [];
    const cpu = { organized: 0, plain: 0 };
    let routed = 0;
    const duringFrom = Date.now();
    const probe = startProbe(server.api);
    for (let i = 0; i < captures; i += 1) {
      let before = server.target.cpuMs();
      const o = await capture(server, texts[next++]!, true);
      cpu.organized += server.target.cpuMs() - before;
      organized.push(o.ms);
      if (o.routed) routed += 1;
      before = server.target.cpuMs();
      plain.push((await capture(server, texts[next++]!, false)).ms);
      cpu.plain += server.target.cpuMs() - before;
    }
    const probeDuring = await probe.stop();
    const lagDuring = await scrapeLagMax(server.api);
    const duringTo = Date.now();
    // The probe writes every 250 ms: wait for its last write of the window.
    await sleep(300);
    const idleStretches = readStretches(probeDir, idleFrom, idleTo);
    const duringStretches = readStretches(probeDir, duringFrom, duringTo);
    const { peakRssMb } = await server.stop();
    await removeProbeDir();
    const org = latencySummary(organized);
    const during = latencySummary(probeDuring);
    const idle = latencySummary(probeIdle);
    // A stall is what a cheap request waits beyond its idle time; the server's own lag is the other view of it.
    const stall = Math.max(during.max_ms - idle.p50_ms, lagDuring ?? 0);
    return {
      database,
      workers,
      items,
      first_organized_ms: round(first.ms),
      organized: org,
      plain: latencySummary(plain),
      decision_p50_ms: round(median(organized) - median(plain)),
      cpu_organized_ms: round(cpu.organized / captures),
      cpu_plain_ms: round(cpu.plain / captures),
      routed_to_a_project: routed,
      probe_idle: idle,
      probe_during: during,
      loop_lag_max_idle_ms: lagIdle ?? null,
      loop_lag_max_during_ms: lagDuring ?? null,
      main_thread_longest_idle_ms: longest(idleStretches),
      main_thread_longest_during_ms: longest(duringStretches),
      main_thread_turns_over_20ms: duringStretches ? duringStretches.filter((s) => s.cpu_ms > 20).length : null,
      peak_rss_mb: peakRssMb,
      targets: { organized_p50_under_30ms: org.p50_ms < 30, organized_p99_under_100ms: org.p99_ms < 100, no_stall_over_20ms: stall <= 20 },
    };
  } catch (error) {
    await server.stop().catch(() => undefined);
    await removeProbeDir();
    throw error;
  }
}

/** The longest stretch, 0 when none passed the probe's 2 ms floor, null without a probe. */
const longest = (stretches: LoopStretch[] | undefined): number | null =>
  stretches
    ? round(
        stretches.reduce((max, s) => Math.max(max, s.cpu_ms), 0),
        1,
      )
    : null;

export function formatOrganizeRow(r: OrganizeRow): string {
  return (
    `[${r.database} WORKERS=${r.workers}] organized p50 ${r.organized.p50_ms} ms p99 ${r.organized.p99_ms} ms (plain ${r.plain.p50_ms} / ${r.plain.p99_ms}; ` +
    `decision ≈ ${r.decision_p50_ms} ms; first ${r.first_organized_ms} ms; ${r.routed_to_a_project}/${r.organized.n} routed) · ` +
    `server CPU per capture ${r.cpu_organized_ms} ms organized, ${r.cpu_plain_ms} ms plain · ` +
    `/healthz beside it p99 ${r.probe_during.p99_ms} max ${r.probe_during.max_ms} ms (idle p99 ${r.probe_idle.p99_ms}) · ` +
    `server loop lag max ${r.loop_lag_max_during_ms ?? '?'} ms (idle ${r.loop_lag_max_idle_ms ?? '?'}) · ` +
    `main thread's longest turn ${r.main_thread_longest_during_ms ?? '?'} ms CPU (idle ${r.main_thread_longest_idle_ms ?? '?'}; ${r.main_thread_turns_over_20ms ?? '?'} over 20 ms) · peak RSS ${r.peak_rss_mb} MB`
  );
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readScenarioSettings(process.env);
  const items = scenarioInteger(process.env, 'BENCH_ORGANIZE_ITEMS', 2_000);
  const captures = scenarioInteger(process.env, 'BENCH_ORGANIZE_CAPTURES', 200);
  const loadBefore = loadavg().map((l) => round(l, 2));
  log(`bench:organize: ${items} items, ${captures} organized + ${captures} plain captures, one at a time; load average ${loadBefore.join(' ')}`);
  const rows: OrganizeRow[] = [];
  for (const database of settings.databases) {
    for (const workers of settings.workers) {
      const row = await measure(database, workers, items, captures, settings.pgAdminUrl);
      rows.push(row);
      log(formatOrganizeRow(row));
    }
  }
  log(JSON.stringify({ bench: 'capture-organize', loadavg_before: loadBefore, loadavg_after: loadavg().map((l) => round(l, 2)), rows }));
}

if (process.argv[1]?.endsWith('capture-organize.js')) {
  main()
    .catch((error: unknown) => {
      if (interrupted()) return;
      process.stderr.write(`bench:organize: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(async () => {
      await stopTracked(5_000);
      await runCleanups(log);
    });
}
