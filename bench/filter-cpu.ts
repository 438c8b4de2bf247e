import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCorpus } from './corpus.js';
import { createBenchDatabases, vacuumAnalyze, type BenchDialect } from './databases.js';
import { buildFilterScenarios, FILTER_RUN_ORDER, type FilterRunName } from './filter-scenarios.js';
import { seedFilterAccount } from './filter-seed.js';
import { installSignalHandlers, interrupted, onCleanup, runCleanups, stopTracked } from './lifecycle.js';
import { scenarioInteger, readSettings } from './settings.js';
import { median, round, spread } from './stats.js';
import { startTarget } from './targets.js';

/*
 * The filter bench's CPU figure (issue 48, decision 0094): server CPU time per request of list_50
 * and of each filter, side by side in one run. On SQLite a request is CPU on the server's one
 * thread from end to end, so list_50's CPU per request over a filter's is the throughput ratio the
 * issue's target is about, and unlike requests per second it barely moves when other processes
 * share the machine. Each round sends FILTER_CPU_REQUESTS (300) requests per scenario, FILTER_CPU_INFLIGHT
 * (4) at a time, and reads the server's CPU ticks (/proc) before and after; many short rounds
 * (FILTER_CPU_ROUNDS, 10), each filter's ratio taken against its own round's list run.
 * On PostgreSQL the figure is the service's CPU only (the database's own processes are not counted).
 * FILTER_CPU_PROFILE=<dir> starts the server under `node --cpu-prof` writing there.
 * Run: npm run build && tsc -p tsconfig.bench.json && node dist-bench/bench/filter-cpu.js
 */

const NO_LIMIT = '1000000000';
const log = (line: string) => process.stdout.write(`${line}\n`);

interface CpuRun {
  scenario: FilterRunName;
  round: number;
  cpu_us_per_request: number;
}

async function send(url: string, token: string, count: number, inflight: number, path: () => string): Promise<number> {
  let sent = 0;
  let failed = 0;
  const lane = async () => {
    while (sent < count) {
      sent += 1;
      const res = await fetch(`${url}${path()}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: inflight }, lane));
  return failed;
}

async function cpuOf(dialect: BenchDialect, items: number, rounds: number, requests: number, inflight: number, pgAdminUrl: string) {
  const work = mkdtempSync(join(tmpdir(), 'inbox-filter-cpu-'));
  const removeWork = onCleanup(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const dbs = await createBenchDatabases(dialect, pgAdminUrl);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: dbs.service, SECRET_KEY: randomBytes(32).toString('hex') };
  for (const name of ['RATE_LIMIT_PRO_PER_MINUTE', 'RATE_LIMIT_PRO_PER_DAY', 'RATE_LIMIT_FREE_PER_MINUTE', 'RATE_LIMIT_FREE_PER_DAY']) env[name] = NO_LIMIT;
  try {
    const corpus = await loadCorpus();
    const account = await seedFilterAccount(dbs.service, corpus, items, new Date(), env);
    if (dialect === 'postgres') await vacuumAnalyze(dbs.service);
    const profileDir = process.env.FILTER_CPU_PROFILE;
    const nodeFlags: string[] = [];
    if (profileDir) {
      mkdirSync(resolve(profileDir), { recursive: true });
      nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`);
    }
    const target = await startTarget({
      side: 'service',
      args: [...nodeFlags, 'dist/server.js'],
      env: { ...env, WORKERS: '1', LOG_LEVEL: 'warn' },
      logFile: join(work, 'service.log'),
    });
    const stop = onCleanup(`service of ${dialect}`, async () => void (await target.stop()));
    try {
      const scenarios = buildFilterScenarios(corpus.searchTerms().slice(0, 40), account.savedFilterId);
      const path = (name: FilterRunName) => () => scenarios.get(name)!.next().path;
      // Warm-up: V8 optimizes the hot paths, caches fill, the database pages are read.
      for (const name of FILTER_RUN_ORDER) await send(target.url, account.token, Math.min(requests, 300), inflight, path(name));
      const runs: CpuRun[] = [];
      for (let n = 1; n <= rounds; n += 1) {
        for (const name of FILTER_RUN_ORDER) {
          const before = target.cpuMs();
          const failed = await send(target.url, account.token, requests, inflight, path(name));
          const cpuMs = target.cpuMs() - before;
          if (failed > 0) throw new Error(`${name}: ${failed} requests were not answered 200`);
          const run = { scenario: name, round: n, cpu_us_per_request: round((cpuMs * 1000) / requests, 1) };
          runs.push(run);
          log(`[${dialect} ${n}/${rounds}] ${name.padEnd(22)} ${String(run.cpu_us_per_request).padStart(8)} µs CPU per request`);
        }
      }
      return runs;
    } finally {
      await stop();
    }
  } finally {
    await dbs.drop();
    await removeWork();
  }
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readSettings(process.env);
  const requests = scenarioInteger(process.env, 'FILTER_CPU_REQUESTS', 300);
  const inflight = scenarioInteger(process.env, 'FILTER_CPU_INFLIGHT', 4);
  const rounds = scenarioInteger(process.env, 'FILTER_CPU_ROUNDS', 10);
  const loadBefore = loadavg().map((l) => round(l, 2));
  log(
    `filter CPU bench: ${settings.items} items, ${rounds} round(s) of ${requests} requests per scenario, ${inflight} in flight; load average ${loadBefore.join(' ')}`,
  );
  const results: Record<string, unknown> = {};
  for (const dialect of settings.databases) {
    const runs = await cpuOf(dialect, settings.items, rounds, requests, inflight, settings.pgAdminUrl);
    log(
      `\n[${dialect}] scenario                µs CPU/request (median)   list_50 ÷ scenario per round, median [min–max] (the throughput ratio if CPU-bound; target ≥ 0.70)`,
    );
    const summary = FILTER_RUN_ORDER.map((scenario) => {
      const mine = runs.filter((r) => r.scenario === scenario);
      const us = median(mine.map((r) => r.cpu_us_per_request));
      // Each round's ratio pairs the scenario with the list run just before it: the machine's load drifts between rounds.
      const perRound = spread(
        mine.map((r) => round(runs.find((l) => l.round === r.round && l.scenario === 'list_50')!.cpu_us_per_request / r.cpu_us_per_request, 2)),
      );
      const ratios = { ...perRound, median: round(perRound.median, 2) };
      log(`  ${scenario.padEnd(22)} ${String(round(us, 1)).padStart(10)}   ${ratios.median} [${ratios.min}–${ratios.max}]`);
      return { scenario, cpu_us_per_request: round(us, 1), list_ratio: ratios };
    });
    results[dialect] = { runs, summary };
  }
  log(
    JSON.stringify({
      bench: 'filters-cpu',
      items: settings.items,
      requests,
      inflight,
      rounds,
      loadavg_before: loadBefore,
      loadavg_after: loadavg().map((l) => round(l, 2)),
      results,
    }),
  );
}

main()
  .catch((error: unknown) => {
    if (interrupted()) return;
    process.stderr.write(`filter CPU bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopTracked(5_000);
    await runCleanups(log);
  });
