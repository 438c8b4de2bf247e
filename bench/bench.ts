import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenarios, ONE_WORD_QUERIES, TWO_WORD_QUERIES } from './scenarios.js';
import { matchShare, seedDatabase, type SeedPlan } from './seed.js';
import { measureLimiterOverhead } from './limiter-overhead.js';
import { measurePrimaryStoreRoundTrip } from './primary-store-roundtrip.js';
import { startServer } from './server.js';
import { createAutocannonLoad } from './autocannon-load.js';
import type { LoadGenerator, RunFigures } from './load-generator.js';
import { createWrkLoad, wrkAvailable } from './wrk-load.js';

/*
 * npm run bench: seeds a fresh SQLite database in a temporary directory (one user with 100,000
 * items, 20 users with 10,000 each), starts the real server on 127.0.0.1 (BENCH_WORKERS processes,
 * default one per core), runs each scenario with the load generator (32 connections, a BENCH_WARMUP_S warm-up (default 3 s),
 * then BENCH_DURATION_S seconds), stops the server and deletes the directory. Prints a table, then
 * one JSON line with every figure. BENCH_LOAD_GENERATOR picks `wrk` (the default when it is installed:
 * apt-get install wrk) or `autocannon`.
 * BENCH_SCALE (default 1) shrinks the data for a quick trial; the README's figures use 1.
 */

const CONNECTIONS = 32;
// The server starts cold before the first scenario: the first seconds run unoptimised code on an
// unread page cache (a first 4 s list run measured p99 39–71 ms, the next one 15 ms).
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
// One server process per core, the setting a deployment on this machine would use (README).
const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const LOAD_GENERATOR = process.env.BENCH_LOAD_GENERATOR ?? (wrkAvailable() ? 'wrk' : 'autocannon');
const PLAN: SeedPlan = { mainItems: Math.round(100_000 * SCALE), otherUsers: 20, otherItems: Math.round(10_000 * SCALE) };

type Figures = RunFigures;

const log = (line: string) => process.stdout.write(`${line}\n`);

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function main(): Promise<void> {
  if (!Number.isFinite(DURATION_S) || DURATION_S <= 0 || !Number.isFinite(SCALE) || SCALE <= 0 || !Number.isInteger(WORKERS) || WORKERS < 1 || !Number.isInteger(WARMUP_S) || WARMUP_S < 1) {
    throw new Error('BENCH_DURATION_S and BENCH_SCALE must be positive numbers, BENCH_WORKERS and BENCH_WARMUP_S positive integers');
  }
  if (LOAD_GENERATOR !== 'wrk' && LOAD_GENERATOR !== 'autocannon') throw new Error('BENCH_LOAD_GENERATOR must be wrk or autocannon');
  if (LOAD_GENERATOR === 'wrk' && !wrkAvailable()) throw new Error('BENCH_LOAD_GENERATOR=wrk but wrk is not installed (apt-get install wrk)');
  if (LOAD_GENERATOR === 'autocannon' && process.env.BENCH_LOAD_GENERATOR === undefined) log('wrk is not installed (apt-get install wrk): using autocannon, which takes more of the cores the server runs on');
  const wrk = LOAD_GENERATOR === 'wrk' ? createWrkLoad(CONNECTIONS) : undefined;
  const load: LoadGenerator = wrk ?? createAutocannonLoad(CONNECTIONS);
  const dir = mkdtempSync(join(tmpdir(), 'inbox-bench-'));
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  const results: Record<string, Figures> = {};
  // Other processes on the machine share its cores; the load average says how much they took.
  const loadBefore = loadavg().map((l) => round(l, 2));
  try {
    const seeded = await seedDatabase(databaseUrl, PLAN, log);
    const share = (queries: string[][]) => matchShare(databaseUrl, seeded.userId, queries).then((s) => s.map((x) => `${round(x * 100)}%`).join(' '));
    log(`one-word searches (share of the user's items matching each): ${await share(ONE_WORD_QUERIES)}`);
    log(`two-word searches, before the status filter: ${await share(TWO_WORD_QUERIES)}`);
    const server = await startServer(databaseUrl, LOG_LEVEL, WORKERS);
    log(`server pid ${server.pid} at ${server.url}, WORKERS=${WORKERS}, LOG_LEVEL=${LOG_LEVEL}; ${load.name}, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per scenario`);
    try {
      for (const scenario of buildScenarios(seeded)) {
        await load.run(server.url, seeded.token, scenario, WARMUP_S);
        const r = await load.run(server.url, seeded.token, scenario, DURATION_S);
        results[scenario.name] = { ...r, rps: round(r.rps), p50_ms: round(r.p50_ms, 2), p99_ms: round(r.p99_ms, 2) };
        const f = results[scenario.name]!;
        log(`${scenario.name.padEnd(24)} ${String(f.rps).padStart(8)} req/s  p50 ${String(f.p50_ms).padStart(7)} ms  p99 ${String(f.p99_ms).padStart(7)} ms  errors ${f.errors}  non-2xx ${f.non2xx}`);
        if (scenario.distinct !== undefined && r.requests > scenario.distinct) {
          log(`  (${r.requests} requests over ${scenario.distinct} distinct targets: the later ones repeated earlier changes)`);
        }
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    wrk?.close();
  }
  // Issue 4's budget: the limiter (memory store) adds under 0.2 ms median per request.
  const limiter = await measureLimiterOverhead();
  log(`limiter (memory store) median ${limiter.median_us} us per check, p99 ${limiter.p99_us} us; whole request +${limiter.http_median_delta_us} us median`);
  // With WORKERS > 1 and no Redis, each check is a round trip to the primary process instead.
  const roundTrip = await measurePrimaryStoreRoundTrip();
  log(`limiter (WORKERS > 1, counters in the primary) median ${roundTrip.median_us} us per check, p99 ${roundTrip.p99_us} us`);
  const targets = {
    limiter_under_0_2ms_median: limiter.http_median_delta_us < 200 && roundTrip.median_us < 200,
    search_p99_under_50ms: Math.max(results.search_one_word?.p99_ms ?? Infinity, results.search_two_words_status?.p99_ms ?? Infinity) < 50,
    list_p99_under_20ms: (results.list?.p99_ms ?? Infinity) < 20,
    no_errors: Object.values(results).every((f) => f.errors === 0 && f.non2xx === 0),
  };
  log(`targets: ${JSON.stringify(targets)}`);
  const machine = { node: process.version, cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', loadavg_before: loadBefore, loadavg_after: loadavg().map((l) => round(l, 2)) };
  log(JSON.stringify({ bench: 'capture-inbox', database: 'sqlite', load_generator: load.name, workers: WORKERS, connections: CONNECTIONS, duration_s: DURATION_S, plan: PLAN, log_level: LOG_LEVEL, machine, scenarios: results, limiter_overhead: limiter, limiter_primary_round_trip: roundTrip, targets }));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
