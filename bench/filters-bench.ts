import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/open-database.js';
import { createAutocannonLoad } from './autocannon-load.js';
import { loadCorpus } from './corpus.js';
import { createBenchDatabases, vacuumAnalyze, type BenchDialect } from './databases.js';
import { BAD_INPUTS, buildFilterScenarios, FILTER_RUN_ORDER, type FilterRunName } from './filter-scenarios.js';
import { seedFilterAccount } from './filter-seed.js';
import { installSignalHandlers, interrupted, onCleanup, runCleanups, stopTracked } from './lifecycle.js';
import type { LoadGenerator } from './load-generator.js';
import { readSettings, type BenchSettings } from './settings.js';
import { median, round, spread, type Spread } from './stats.js';
import { startTarget } from './targets.js';
import { createWrkLoad, wrkAvailable } from './wrk-load.js';

/*
 * The filter bench (issue 48): the service alone, on one account of N items (100,000 by default,
 * BENCH_SCALE as the main bench), on SQLite and PostgreSQL. Each round runs list_50 and the four
 * filters one after the other, so a filter's ratio pairs it with the list run of its own round (the
 * machine is shared: ratios from side-by-side runs, with their spread, are the figure to read).
 * Targets: p99 under 50 ms and at least 0.70 of list_50's throughput. Then the bad inputs, each sent
 * one at a time, their latency as a figure. Run: npm run build && tsc -p tsconfig.bench.json &&
 * node dist-bench/bench/filters-bench.js (docs/filters.md, decision 0087).
 */

const NO_LIMIT = '1000000000';
const BAD_INPUT_REQUESTS = 30;
const P99_TARGET_MS = 50;
const RATIO_TARGET = 0.7;
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Run {
  database: BenchDialect;
  round: number;
  scenario: FilterRunName;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
}

interface ScenarioSummary {
  scenario: FilterRunName;
  rps: Spread;
  p99_ms: Spread;
  /** This scenario's throughput over list_50's, round by round. */
  ratio_to_list: Spread;
  meets_targets: boolean;
}

function loadGenerator(settings: BenchSettings): LoadGenerator & { close(): void } {
  if ((settings.loadGenerator ?? (wrkAvailable() ? 'wrk' : 'autocannon')) === 'wrk') return createWrkLoad(settings.connections);
  return { ...createAutocannonLoad(settings.connections), close: () => undefined };
}

async function timedGet(url: string, token: string): Promise<{ ms: number; status: number; items: number | null }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { items?: unknown[] };
  return { ms: performance.now() - started, status: res.status, items: Array.isArray(body.items) ? body.items.length : null };
}

function summarize(runs: readonly Run[]): ScenarioSummary[] {
  const rounds = [...new Set(runs.map((r) => r.round))];
  return FILTER_RUN_ORDER.map((scenario) => {
    const mine = runs.filter((r) => r.scenario === scenario);
    const ratios = rounds.flatMap((n) => {
      const list = runs.find((r) => r.round === n && r.scenario === 'list_50');
      const own = mine.find((r) => r.round === n);
      return list && own && list.rps > 0 ? [own.rps / list.rps] : [];
    });
    const ratio = spread(ratios.map((r) => round(r, 2)));
    const p99 = spread(mine.map((r) => r.p99_ms));
    return {
      scenario,
      rps: spread(mine.map((r) => r.rps)),
      p99_ms: p99,
      ratio_to_list: ratio,
      meets_targets: p99.median < P99_TARGET_MS && ratio.median >= RATIO_TARGET,
    };
  });
}

async function dropFilterIndexes(url: string): Promise<void> {
  const handle = openDatabase(url);
  try {
    for (const name of ['items_open_due_idx', 'items_open_project_due_idx']) await sql`drop index ${sql.raw(name)}`.execute(handle.db);
  } finally {
    await handle.db.destroy();
  }
}

async function benchDatabase(dialect: BenchDialect, settings: BenchSettings) {
  const work = mkdtempSync(join(tmpdir(), 'inbox-filter-bench-'));
  const removeWork = onCleanup(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const dbs = await createBenchDatabases(dialect, settings.pgAdminUrl);
  const load = loadGenerator(settings);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: dbs.service, SECRET_KEY: randomBytes(32).toString('hex') };
  for (const name of ['RATE_LIMIT_PRO_PER_MINUTE', 'RATE_LIMIT_PRO_PER_DAY', 'RATE_LIMIT_FREE_PER_MINUTE', 'RATE_LIMIT_FREE_PER_DAY']) env[name] = NO_LIMIT;
  try {
    const corpus = await loadCorpus();
    const started = Date.now();
    const account = await seedFilterAccount(dbs.service, corpus, settings.items, new Date(), env);
    // FILTER_BENCH_WITHOUT_INDEXES=1: the same run without the filters' indexes, for decision 0087's before-and-after.
    if (process.env.FILTER_BENCH_WITHOUT_INDEXES === '1') await dropFilterIndexes(dbs.service);
    if (dialect === 'postgres') await vacuumAnalyze(dbs.service);
    log(`[${dialect}] seeded ${settings.items} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const target = await startTarget({
      side: 'service',
      args: ['dist/server.js'],
      env: { ...env, WORKERS: '1', LOG_LEVEL: 'warn' },
      logFile: join(work, 'service.log'),
    });
    const stop = onCleanup(`service of ${dialect}`, async () => void (await target.stop()));
    try {
      const scenarios = buildFilterScenarios(corpus.searchTerms().slice(0, 40), account.savedFilterId);
      for (const name of FILTER_RUN_ORDER) {
        const first = await timedGet(`${target.url}${scenarios.get(name)!.next().path}`, account.token);
        log(`[${dialect}] ${name.padEnd(22)} first page: ${first.status}, ${first.items ?? '?'} items, ${first.ms.toFixed(1)} ms`);
        if (first.status !== 200) throw new Error(`${name} answered ${first.status}`);
      }
      const runs: Run[] = [];
      for (let n = 1; n <= settings.rounds; n += 1) {
        for (const name of FILTER_RUN_ORDER) {
          const scenario = scenarios.get(name)!;
          await target.waitQuiet(10_000);
          if (settings.warmupS > 0) await load.run(target.url, account.token, scenario, settings.warmupS);
          const f = await load.run(target.url, account.token, scenario, settings.durationS);
          const run: Run = {
            database: dialect,
            round: n,
            scenario: name,
            rps: round(f.rps),
            p50_ms: round(f.p50_ms, 2),
            p99_ms: round(f.p99_ms, 2),
            non2xx: f.non2xx,
            errors: f.errors,
          };
          runs.push(run);
          log(
            `[${dialect} ${n}/${settings.rounds}] ${name.padEnd(22)} ${String(run.rps).padStart(8)} req/s  p50 ${run.p50_ms} ms  p99 ${run.p99_ms} ms  non-2xx ${run.non2xx}  errors ${run.errors}`,
          );
        }
      }
      const badInputs: Record<string, { status: number; p50_ms: number; max_ms: number }> = {};
      for (const [name, query] of Object.entries(BAD_INPUTS)) {
        const times: number[] = [];
        let status = 0;
        for (let i = 0; i < BAD_INPUT_REQUESTS; i += 1) {
          const r = await timedGet(`${target.url}/api/v1/items?filter=${encodeURIComponent(query)}`, account.token);
          times.push(r.ms);
          status = r.status;
        }
        badInputs[name] = { status, p50_ms: round(median(times), 2), max_ms: round(Math.max(...times), 2) };
        log(`[${dialect}] bad input ${name.padEnd(20)} ${status}  p50 ${badInputs[name].p50_ms} ms  max ${badInputs[name].max_ms} ms`);
      }
      return { runs, summary: summarize(runs), bad_inputs: badInputs };
    } finally {
      await stop();
    }
  } finally {
    load.close();
    await dbs.drop();
    await removeWork();
  }
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readSettings(process.env);
  const loadBefore = loadavg().map((l) => round(l, 2));
  log(
    `filter bench${process.env.FILTER_BENCH_WITHOUT_INDEXES === '1' ? ' WITHOUT the filter indexes' : ''}: ${settings.items} items, ${settings.rounds} round(s) of ${settings.warmupS} s + ${settings.durationS} s per scenario, ${settings.connections} connections; load average ${loadBefore.join(' ')}`,
  );
  const databases: Record<string, Awaited<ReturnType<typeof benchDatabase>>> = {};
  for (const dialect of settings.databases) {
    const result = await benchDatabase(dialect, settings);
    databases[dialect] = result;
    log(`\n[${dialect}] scenario                median req/s [min–max]   p99 ms median [min–max]   ÷ list_50 median [min–max]   targets`);
    for (const s of result.summary) {
      log(
        `  ${s.scenario.padEnd(22)} ${String(round(s.rps.median)).padStart(8)} [${round(s.rps.min)}–${round(s.rps.max)}]   ${s.p99_ms.median} [${s.p99_ms.min}–${s.p99_ms.max}]   ${s.ratio_to_list.median} [${s.ratio_to_list.min}–${s.ratio_to_list.max}]   ${s.scenario === 'list_50' ? '' : s.meets_targets ? 'met' : 'MISSED'}`,
      );
    }
  }
  const { durationS, warmupS, rounds, items, connections } = settings;
  log(
    JSON.stringify({
      bench: 'filters',
      settings: { duration_s: durationS, warmup_s: warmupS, rounds, items, connections },
      loadavg_before: loadBefore,
      loadavg_after: loadavg().map((l) => round(l, 2)),
      databases,
    }),
  );
}

main()
  .catch((error: unknown) => {
    if (interrupted()) return;
    process.stderr.write(`filter bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopTracked(5_000);
    await runCleanups(log);
  });
