import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createAutocannonLoad } from './autocannon-load.js';
import { loadCorpus, type Corpus } from './corpus.js';
import { createBenchDatabases, vacuumAnalyze, type BenchDialect } from './databases.js';
import { installSignalHandlers, interrupted, onCleanup, runCleanups, stopTracked } from './lifecycle.js';
import { measureLimiterOverhead } from './limiter-overhead.js';
import { measureLiveStreams } from './live-streams.js';
import type { LoadGenerator } from './load-generator.js';
import { measurePrimaryStoreRoundTrip } from './primary-store-roundtrip.js';
import {
  checkTargets,
  formatScaling,
  formatSummary,
  kbToMb,
  scalingRows,
  summarize,
  type ConfigSummary,
  type LifeRecord,
  type RunRecord,
  type ScalingRow,
} from './report.js';
import { readDurationBuckets, serverP99BoundMs } from './server-latency.js';
import { buildScenarios, RUN_ORDER } from './scenarios.js';
import { seedBaseline, seedService } from './seed.js';
import { compareAnswers, type SameAnswers } from './same-answers.js';
import { CONFIGS, readSettings, type BenchSettings, type ConfigName } from './settings.js';
import { round } from './stats.js';
import { repoRoot } from './paths.js';
import { startTarget, type RunningTarget, type Side } from './targets.js';
import { createWrkLoad, wrkAvailable } from './wrk-load.js';

/*
 * npm run bench: this service against the bare baseline (bench/baseline/), on the same seeded data,
 * on SQLite and on PostgreSQL, in alternating runs. Method, knobs and how to read the figures:
 * docs/performance.md.
 */

/** Limits no benchmark reaches, so both rate limiters answer every request (and still run). */
const NO_LIMIT = '1000000000';
const CAPTURE_BODIES = 20_000;
/** How long to wait for the idle side to finish its background work before a run. */
const QUIET_MAX_MS = 10_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const loadNow = () => loadavg().map((l) => round(l, 2));

interface DatabaseResult {
  items: number;
  seed_s: { baseline: number; service: number };
  loadavg_before: number[];
  loadavg_after: number[];
  same_answers: SameAnswers | null;
  configs: ConfigSummary[];
  /** Each other config's service req/s against WORKERS=1 (the default config) of the same run. */
  scaling: ScalingRow[];
  targets: Record<string, boolean> | null;
}

/** Only what the servers need: a stray REDIS_URL or WORKERS in the shell must not change what is measured. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/**
 * Start-up as a user types it: `npm start` in the repository (the service) or in bench/baseline (the
 * baseline's own package.json), from spawning npm to the first 200 from /readyz; stopped at once.
 * npm itself costs a few hundred milliseconds of that, on both sides alike.
 */
async function readyThroughNpmStart(side: Side, env: NodeJS.ProcessEnv, logFile: string): Promise<number> {
  const cwd = side === 'service' ? repoRoot() : join(repoRoot(), 'bench', 'baseline');
  const target = await startTarget({ side, command: 'npm', args: ['start', '--silent'], cwd, env, logFile });
  await target.stop();
  return target.readyMs;
}

const limitsEnv = {
  RATE_LIMIT_PRO_PER_MINUTE: NO_LIMIT,
  RATE_LIMIT_PRO_PER_DAY: NO_LIMIT,
  RATE_LIMIT_FREE_PER_MINUTE: NO_LIMIT,
  RATE_LIMIT_FREE_PER_DAY: NO_LIMIT,
};

function describe(config: ConfigName): string {
  const c = CONFIGS[config];
  return `WORKERS=${c.WORKERS} LOG_LEVEL=${c.LOG_LEVEL}`;
}

function loadGenerator(settings: BenchSettings): LoadGenerator & { close(): void } {
  const name = settings.loadGenerator ?? (wrkAvailable() ? 'wrk' : 'autocannon');
  if (name === 'wrk') {
    if (!wrkAvailable()) throw new Error('BENCH_LOAD_GENERATOR=wrk but wrk is not installed (apt-get install wrk)');
    return createWrkLoad(settings.connections);
  }
  if (settings.loadGenerator === undefined)
    log('wrk is not installed (apt-get install wrk): using autocannon, which takes more of the cores the servers run on');
  return { ...createAutocannonLoad(settings.connections), close: () => undefined };
}

async function benchDatabase(dialect: BenchDialect, settings: BenchSettings, corpus: Corpus, runs: RunRecord[], lives: LifeRecord[]): Promise<DatabaseResult> {
  const loadBefore = loadNow();
  const work = mkdtempSync(join(tmpdir(), 'inbox-bench-run-'));
  const removeWork = onCleanup(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const dbs = await createBenchDatabases(dialect, settings.pgAdminUrl);
  const loads: Record<Side, LoadGenerator & { close(): void }> = { service: loadGenerator(settings), baseline: loadGenerator(settings) };
  const closeLoads = onCleanup('load generators', () => {
    loads.service.close();
    loads.baseline.close();
  });
  const secretKey = randomBytes(32).toString('hex');
  const serviceEnv = { ...cleanEnv(), ...limitsEnv, DATABASE_URL: dbs.service, SECRET_KEY: secretKey };
  const baselineEnv = { ...cleanEnv(), ...limitsEnv, DATABASE_URL: dbs.baseline, BASELINE_FRAMEWORK: settings.baselineFramework };
  try {
    let started = Date.now();
    const baseline = await seedBaseline(dbs.baseline, settings.items, join(work, 'ids.txt'), baselineEnv);
    const baselineSeedS = (Date.now() - started) / 1000;
    started = Date.now();
    const service = await seedService(dbs.service, corpus, baseline.ids, serviceEnv);
    const serviceSeedS = (Date.now() - started) / 1000;
    if (dialect === 'postgres') {
      await vacuumAnalyze(dbs.baseline);
      await vacuumAnalyze(dbs.service);
    }
    log(
      `[${dialect}] seeded ${settings.items} items: baseline ${baselineSeedS.toFixed(1)} s, service ${serviceSeedS.toFixed(1)} s (same items, ids and created_at)`,
    );

    const data = { ids: baseline.ids, captureBodies: corpus.captureBodies(CAPTURE_BODIES), searchTerms: corpus.searchTerms() };
    const scenarios = { service: buildScenarios(data), baseline: buildScenarios(data) };
    const tokens: Record<Side, string> = { service: service.token, baseline: baseline.token };
    let sameAnswers: SameAnswers | null = null;
    const summaries: ConfigSummary[] = [];

    for (const config of settings.configs) {
      for (let roundNo = 1; roundNo <= settings.rounds; roundNo += 1) {
        const logFile = (side: Side) => join(work, `${side}-${config}-${roundNo}.log`);
        const targets: Partial<Record<Side, RunningTarget>> = {};
        const roundLives: Omit<LifeRecord, 'ready_npm_ms'>[] = [];
        const stopAll = onCleanup(`servers of ${dialect} ${config} round ${roundNo}`, async () => {
          for (const t of Object.values(targets)) await t?.stop();
        });
        try {
          // One at a time, so neither start-up competes with the other.
          targets.service = await startTarget({
            side: 'service',
            args: ['dist/server.js'],
            env: { ...serviceEnv, ...CONFIGS[config] },
            logFile: logFile('service'),
          });
          targets.baseline = await startTarget({ side: 'baseline', args: ['bench/baseline/server.mjs'], env: baselineEnv, logFile: logFile('baseline') });
          const running = targets as Record<Side, RunningTarget>;
          if (sameAnswers === null) {
            sameAnswers = await compareAnswers(
              { url: running.service.url, token: tokens.service },
              { url: running.baseline.url, token: tokens.baseline },
              data.searchTerms,
            );
            log(
              `[${dialect}] same first pages on both sides (list and ${data.searchTerms.length} searches, before any write): ${sameAnswers.same}/${sameAnswers.checked}`,
            );
            for (const d of sameAnswers.different) log(`  WARNING: different answers: ${d}`);
          }
          for (const name of RUN_ORDER) {
            for (const side of ['service', 'baseline'] as const) {
              const other = running[side === 'service' ? 'baseline' : 'service'];
              const quiet = await other.waitQuiet(QUIET_MAX_MS);
              const target = running[side];
              const scenario = scenarios[side].get(name)!;
              if (settings.warmupS > 0) await loads[side].run(target.url, tokens[side], scenario, settings.warmupS);
              // The server's own histogram says only for one process: a worker answers /metrics for itself.
              const oneProcess = CONFIGS[config].WORKERS === '1' || side === 'baseline';
              const bucketsBefore = oneProcess ? await readDurationBuckets(target.url) : null;
              const cpuBefore = target.cpuMs();
              const f = await loads[side].run(target.url, tokens[side], scenario, settings.durationS);
              const cpu = target.cpuMs() - cpuBefore;
              const serverP99 = oneProcess ? serverP99BoundMs(bucketsBefore, await readDurationBuckets(target.url)) : null;
              const record: RunRecord = {
                database: dialect,
                config,
                round: roundNo,
                side,
                scenario: name,
                rps: round(f.rps),
                p50_ms: round(f.p50_ms, 2),
                p99_ms: round(f.p99_ms, 2),
                requests: f.requests,
                errors: f.errors,
                non2xx: f.non2xx,
                cpu_ms_per_request: f.requests > 0 ? round(cpu / f.requests, 3) : 0,
                server_p99_at_most_ms: serverP99,
                other_side_quiet: quiet,
              };
              runs.push(record);
              log(
                `[${dialect} ${config} ${roundNo}/${settings.rounds}] ${name.padEnd(16)} ${side.padEnd(8)} ${String(record.rps).padStart(9)} req/s  p99 ${String(record.p99_ms).padStart(7)} ms (server ≤ ${record.server_p99_at_most_ms ?? '?'})  CPU ${record.cpu_ms_per_request} ms/req  errors ${record.errors}  non-2xx ${record.non2xx}${quiet ? '' : '  (other side busy)'}`,
              );
            }
          }
        } finally {
          for (const side of ['service', 'baseline'] as const) {
            const t = targets[side];
            if (!t) continue;
            delete targets[side];
            const stopped = await t.stop();
            roundLives.push({
              database: dialect,
              config,
              round: roundNo,
              side,
              ready_ms: round(t.readyMs, 1),
              rss_at_ready_mb: kbToMb(t.rssAtReadyKb),
              peak_rss_mb: kbToMb(stopped.peakRssKb),
              hwm_mb: kbToMb(stopped.hwmKb),
              log_mb: round(stopped.logBytes / 2 ** 20, 1),
            });
          }
          await stopAll();
        }
        const npmReady = {
          service: await readyThroughNpmStart('service', { ...serviceEnv, ...CONFIGS[config] }, logFile('service')),
          baseline: await readyThroughNpmStart('baseline', baselineEnv, logFile('baseline')),
        };
        for (const life of roundLives) lives.push({ ...life, ready_npm_ms: round(npmReady[life.side], 1) });
      }
      const summary = summarize(dialect, config, runs, lives);
      summaries.push(summary);
      log(`\n${formatSummary(summary, describe(config))}\n`);
    }
    const headline = summaries.find((s) => s.config === 'default');
    const scaling = headline ? summaries.filter((s) => s !== headline).flatMap((s) => scalingRows(s, headline)) : [];
    for (const config of new Set(scaling.map((r) => r.config)))
      log(
        `${formatScaling(
          scaling.filter((r) => r.config === config),
          dialect,
        )}\n`,
      );
    return {
      items: settings.items,
      seed_s: { baseline: round(baselineSeedS), service: round(serviceSeedS) },
      loadavg_before: loadBefore,
      loadavg_after: loadNow(),
      same_answers: sameAnswers,
      configs: summaries,
      scaling,
      targets: headline ? checkTargets(headline) : null,
    };
  } finally {
    await closeLoads();
    await dbs.drop();
    await removeWork();
  }
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readSettings(process.env);
  const corpus = await loadCorpus();
  const loadBefore = loadNow();
  log(
    `bench: service vs baseline (${settings.baselineFramework}), ${settings.items} items, databases ${settings.databases.join(', ')}, configs ${settings.configs.join(', ')}, ` +
      `${settings.rounds} round(s) of ${settings.warmupS} s warm-up + ${settings.durationS} s per scenario and side, ${settings.connections} connections; load average ${loadBefore.join(' ')}`,
  );
  const runs: RunRecord[] = [];
  const lives: LifeRecord[] = [];
  const databases: Partial<Record<BenchDialect, DatabaseResult>> = {};
  for (const dialect of settings.databases) databases[dialect] = await benchDatabase(dialect, settings, corpus, runs, lives);

  for (const [dialect, result] of Object.entries(databases)) {
    if (result?.targets) log(`[${dialect}] targets (default settings): ${JSON.stringify(result.targets)}`);
  }
  let extras: Record<string, unknown> | undefined;
  // Issue 32's budget: capture-to-event latency with 100 open streams, memory of 1,000 idle ones (one process, SQLite).
  const live = await measureLiveStreams();
  log(
    `live streams: capture to event p50 ${live.capture_to_event_p50_ms} ms, p99 ${live.capture_to_event_p99_ms} ms with ${live.latency_streams} open; ` +
      `${live.idle_streams} idle streams +${live.extra_mb_for_idle_streams} MB RSS`,
  );
  extras = { live_streams: live };
  if (settings.extras) {
    // Issue 4's budget: the limiter (memory store) adds under 0.2 ms median per request.
    const limiter = await measureLimiterOverhead();
    log(`limiter (memory store) median ${limiter.median_us} us per check, p99 ${limiter.p99_us} us; whole request +${limiter.http_median_delta_us} us median`);
    const roundTrip = await measurePrimaryStoreRoundTrip();
    log(`limiter (WORKERS > 1, counters in the primary) median ${roundTrip.median_us} us per check, p99 ${roundTrip.p99_us} us`);
    extras = { ...extras, limiter_overhead: limiter, limiter_primary_round_trip: roundTrip };
  }
  const machine = {
    node: process.version,
    cpus: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memory_gb: round(totalmem() / 2 ** 30, 1),
    loadavg_before: loadBefore,
    loadavg_after: loadNow(),
  };
  const { durationS, warmupS, rounds, scale, items, configs, baselineFramework, connections } = settings;
  log(
    JSON.stringify({
      bench: 'capture-inbox-vs-baseline',
      settings: { duration_s: durationS, warmup_s: warmupS, rounds, scale, items, configs, baseline_framework: baselineFramework, connections },
      machine,
      databases,
      ...(extras ? { extras } : {}),
      runs,
      lives,
    }),
  );
}

main()
  .catch(async (error: unknown) => {
    if (interrupted()) return;
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopTracked(5_000);
    await runCleanups(log);
  });
