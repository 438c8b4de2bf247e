import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { field, runNodeJson } from './command.js';
import { CORPUS_SEED, loadCorpus } from './corpus.js';
import { backendPids, createScratchDatabase, vacuumAnalyze, type BenchDialect } from './databases.js';
import { createHttpClient, type HttpClient } from './http-client.js';
import { installSignalHandlers, onCleanup, runCleanups } from './lifecycle.js';
import { clockTicksPerSecond, readCpuTicks } from './proc.js';
import { repoRoot } from './paths.js';
import { buildScenarios, RUN_ORDER, type ScenarioName } from './scenarios.js';
import { median, round } from './stats.js';
import { startTarget, type RunningTarget } from './targets.js';

/*
 * The hot paths' CPU per request, side by side (issue 52 item 2, issue 46's "no hot path slower"):
 * this checkout's server, the baseline, and optionally another build of the service (an older
 * commit built in its own folder), each on its own fresh database filled the same way, each sent
 * the same fixed number of requests per scenario by a few keep-alive connections, in alternating
 * rounds. What is reported is the server process's own CPU (utime + stime from /proc) per request,
 * which a loaded machine moves far less than throughput: the figure to compare a change by.
 *
 *   tsc -p tsconfig.bench.json && node dist-bench/bench/cpu-per-request.js
 *   HOTPATH_COMPARE=/tmp/prewave  (a built checkout of another commit: node_modules, dist/)
 *   BENCH_DATABASES=sqlite,postgres HOTPATH_ITEMS=20000 HOTPATH_REQUESTS=4000 HOTPATH_ROUNDS=3
 *   HOTPATH_CONNECTIONS=16 HOTPATH_SIDES=current,compare,baseline HOTPATH_SCENARIOS=toggle,capture
 *
 * On PostgreSQL the database's CPU a request is reported too: the backends of the side's database
 * (its pool and LISTEN connection), read from /proc over the same requests.
 *
 * Every side is filled through its own POST /capture with the corpus's first HOTPATH_ITEMS texts
 * (so an older build, whose tables differ, is filled the way it fills them itself), then, on
 * PostgreSQL, VACUUM ANALYZE. Capture runs last in a round, as in `npm run bench`.
 */

const NO_LIMIT = '1000000000';
const ADMIN_TIMEOUT_MS = 120_000;
const QUIET_MAX_MS = 10_000;
const SEED_CONNECTIONS = 8;
const CAPTURE_BODIES = 20_000;

type SideName = 'current' | 'compare' | 'baseline';

interface Side {
  name: SideName;
  /** The checkout the side runs from. */
  root: string;
  script: string;
  admin: string;
}

interface Settings {
  databases: BenchDialect[];
  sides: Side[];
  items: number;
  requests: number;
  rounds: number;
  connections: number;
  pgAdminUrl: string;
  scenarios: readonly ScenarioName[];
}

const log = (line: string) => process.stdout.write(`${line}\n`);

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} is an integer of at least ${min}, not ${raw}`);
  return n;
}

function readSettings(): Settings {
  const root = repoRoot();
  const compareDir = process.env.HOTPATH_COMPARE;
  const wanted = (process.env.HOTPATH_SIDES ?? (compareDir ? 'current,compare,baseline' : 'current,baseline')).split(',');
  const sides: Side[] = [];
  for (const name of wanted) {
    if (name === 'current') sides.push({ name, root, script: 'dist/server.js', admin: 'dist/cli/admin.js' });
    else if (name === 'baseline') sides.push({ name, root, script: 'bench/baseline/server.mjs', admin: 'bench/baseline/admin.mjs' });
    else if (name === 'compare') {
      if (!compareDir) throw new Error('HOTPATH_SIDES names compare but HOTPATH_COMPARE (a built checkout) is not set');
      const dir = isAbsolute(compareDir) ? compareDir : resolve(compareDir);
      sides.push({ name, root: dir, script: 'dist/server.js', admin: 'dist/cli/admin.js' });
    } else throw new Error(`HOTPATH_SIDES: unknown side ${name} (current, compare, baseline)`);
  }
  const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => {
    if (d !== 'sqlite' && d !== 'postgres') throw new Error(`BENCH_DATABASES: sqlite or postgres, not ${d}`);
    return d;
  });
  return {
    databases,
    sides,
    items: intEnv('HOTPATH_ITEMS', 20_000, 100),
    requests: intEnv('HOTPATH_REQUESTS', 4_000, 100),
    rounds: intEnv('HOTPATH_ROUNDS', 3, 1),
    connections: intEnv('HOTPATH_CONNECTIONS', 16, 1),
    scenarios: scenarioList(process.env.HOTPATH_SCENARIOS),
    pgAdminUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

/** HOTPATH_SCENARIOS: a subset of the round, still run in the round's order. */
function scenarioList(raw: string | undefined): readonly ScenarioName[] {
  if (raw === undefined || raw.trim() === '') return RUN_ORDER;
  const wanted = raw.split(',').map((s) => s.trim());
  for (const name of wanted)
    if (!(RUN_ORDER as readonly string[]).includes(name)) throw new Error(`HOTPATH_SCENARIOS: unknown ${name} (${RUN_ORDER.join(', ')})`);
  return RUN_ORDER.filter((name) => wanted.includes(name));
}

/** CPU ticks of each backend still alive at both ends, summed; a backend that came or went is left out. */
function ticksByPid(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, readCpuTicks([pid])]));
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** Sends `total` requests over `connections` keep-alive connections, each sending its next as soon as the last is answered. */
async function drive(
  api: HttpClient,
  total: number,
  connections: number,
  next: () => { method: 'GET' | 'POST'; path: string; body?: string },
  auth: Record<string, string>,
): Promise<{ non2xx: number; ids: string[] }> {
  let sent = 0;
  let non2xx = 0;
  const ids: string[] = [];
  const worker = async () => {
    while (sent < total) {
      sent += 1;
      const r = next();
      const headers = r.body === undefined ? auth : { ...auth, 'content-type': 'application/json' };
      const answer = await api.call({ method: r.method, path: r.path, headers, ...(r.body === undefined ? {} : { body: r.body }) });
      if (answer.status < 200 || answer.status > 299) non2xx += 1;
      else if (r.method === 'POST' && r.path.endsWith('/capture')) ids.push((JSON.parse(answer.text) as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { non2xx, ids };
}

interface Prepared {
  side: Side;
  env: NodeJS.ProcessEnv;
  token: string;
  ids: string[];
  dbUrl: string;
}

async function prepareSide(side: Side, dialect: BenchDialect, settings: Settings, seedBodies: readonly string[], work: string): Promise<Prepared> {
  const db = await createScratchDatabase(dialect, settings.pgAdminUrl, `hot_${side.name}`);
  const env = {
    ...cleanEnv(),
    DATABASE_URL: db.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_PRO_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_PRO_PER_DAY: NO_LIMIT,
    RATE_LIMIT_FREE_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_FREE_PER_DAY: NO_LIMIT,
  };
  await runNodeJson(side.root, side.admin, ['migrate'], env, ADMIN_TIMEOUT_MS);
  const email = 'bench@example.test';
  await runNodeJson(side.root, side.admin, ['user', 'create', '--email', email, '--plan', 'pro'], env, ADMIN_TIMEOUT_MS);
  const key = await runNodeJson(side.root, side.admin, ['key', 'create', '--email', email, '--label', 'bench'], env, ADMIN_TIMEOUT_MS);
  const token = field(key, 'token', `${side.name} key create`);
  const target = await startTarget({
    side: side.name === 'baseline' ? 'baseline' : 'service',
    args: [side.script],
    cwd: side.root,
    env,
    logFile: join(work, `${side.name}-seed.log`),
  });
  const api = createHttpClient(target.url);
  try {
    let i = 0;
    const started = Date.now();
    const { ids, non2xx } = await drive(api, seedBodies.length, SEED_CONNECTIONS, () => ({ method: 'POST', path: '/api/v1/capture', body: seedBodies[i++]! }), {
      authorization: `Bearer ${token}`,
    });
    if (non2xx > 0) throw new Error(`${side.name}: ${non2xx} seed captures failed`);
    log(`[${dialect}] ${side.name}: ${ids.length} items captured in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Oldest first, as the scenarios expect (UUID v7 sorts by time).
    ids.sort();
    return { side, env, token, ids, dbUrl: db.url };
  } finally {
    api.close();
    await target.stop();
    if (dialect === 'postgres') await vacuumAnalyze(db.url);
  }
}

interface Measured {
  side: SideName;
  scenario: ScenarioName;
  round: number;
  cpu_us: number;
  /** PostgreSQL: the side's backends' CPU a request. */
  db_cpu_us?: number;
  wall_ms: number;
  non2xx: number;
}

async function benchDatabase(dialect: BenchDialect, settings: Settings): Promise<Measured[]> {
  const corpus = await loadCorpus();
  const work = mkdtempSync(join(tmpdir(), 'inbox-hotpath-'));
  const removeWork = onCleanup(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const seedBodies = [...corpus.seedItems(settings.items, CORPUS_SEED)].map((item) => JSON.stringify(item));
  const prepared: Prepared[] = [];
  for (const side of settings.sides) prepared.push(await prepareSide(side, dialect, settings, seedBodies, work));
  const results: Measured[] = [];
  const captureBodies = corpus.captureBodies(CAPTURE_BODIES, CORPUS_SEED + 1);
  const scenarios = new Map(prepared.map((p) => [p.side.name, buildScenarios({ ids: p.ids, captureBodies, searchTerms: corpus.searchTerms() })]));
  try {
    for (let round = 1; round <= settings.rounds; round += 1) {
      const running = new Map<SideName, RunningTarget>();
      try {
        for (const p of prepared) {
          const t = await startTarget({
            side: p.side.name === 'baseline' ? 'baseline' : 'service',
            args: [p.side.script],
            cwd: p.side.root,
            env: p.env,
            logFile: join(work, `${p.side.name}.log`),
          });
          running.set(p.side.name, t);
        }
        for (const name of settings.scenarios) {
          for (const p of prepared) {
            const target = running.get(p.side.name)!;
            const scenario = scenarios.get(p.side.name)!.get(name)!;
            for (const other of running.values()) if (other !== target) await other.waitQuiet(QUIET_MAX_MS);
            const api = createHttpClient(target.url);
            const auth = { authorization: `Bearer ${p.token}` };
            const next = () => ({ method: scenario.method, ...scenario.next() });
            // A short warm-up (JIT, caches, connections), not counted.
            await drive(api, Math.ceil(settings.requests / 10), settings.connections, next, auth);
            const backends = dialect === 'postgres' ? await backendPids(p.dbUrl) : [];
            const dbBefore = ticksByPid(backends);
            const cpuBefore = target.cpuMs();
            const started = performance.now();
            const { non2xx } = await drive(api, settings.requests, settings.connections, next, auth);
            const wall = performance.now() - started;
            const cpu = target.cpuMs() - cpuBefore;
            let dbTicks = 0;
            for (const [pid, ticks] of ticksByPid(backends)) {
              const before = dbBefore.get(pid);
              if (ticks > 0 && before !== undefined) dbTicks += ticks - before;
            }
            api.close();
            const m: Measured = {
              side: p.side.name,
              scenario: name,
              round,
              cpu_us: round3((cpu * 1000) / settings.requests),
              wall_ms: Math.round(wall),
              non2xx,
            };
            if (dialect === 'postgres') m.db_cpu_us = round3((dbTicks * 1_000_000) / clockTicksPerSecond() / settings.requests);
            results.push(m);
            log(
              `[${dialect}] round ${round} ${name.padEnd(16)} ${p.side.name.padEnd(8)} ${String(Math.round(m.cpu_us)).padStart(5)} µs CPU/req${m.db_cpu_us === undefined ? '' : `, database ${Math.round(m.db_cpu_us)} µs`}${non2xx ? `  ${non2xx} non-2xx` : ''}`,
            );
          }
        }
      } finally {
        for (const t of running.values()) await t.stop();
      }
    }
  } finally {
    await removeWork();
  }
  return results;
}

const round3 = (n: number) => round(n, 1);

function table(dialect: BenchDialect, settings: Settings, results: readonly Measured[]): string {
  const names = settings.sides.map((s) => s.name);
  const lines = [`${dialect}: server CPU µs per request, median of ${settings.rounds} rounds (min-max); ratios of medians`];
  lines.push(
    ['scenario'.padEnd(16), ...names.map((n) => n.padStart(18)), ...names.filter((n) => n !== 'current').map((n) => `current/${n}`.padStart(18))].join(''),
  );
  for (const scenario of settings.scenarios) {
    const medians = new Map<SideName, number>();
    const cells = names.map((n) => {
      const xs = results.filter((r) => r.side === n && r.scenario === scenario).map((r) => r.cpu_us);
      const m = median(xs);
      medians.set(n, m);
      return `${Math.round(m)} (${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))})`.padStart(18);
    });
    const ratios = names.filter((n) => n !== 'current').map((n) => (medians.get('current')! / medians.get(n)!).toFixed(2).padStart(18));
    lines.push([scenario.padEnd(16), ...cells, ...ratios].join(''));
    if (dialect === 'postgres') {
      const dbCells = names.map((n) => {
        const xs = results.filter((r) => r.side === n && r.scenario === scenario).map((r) => r.db_cpu_us ?? 0);
        return `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))})`.padStart(18);
      });
      lines.push(['  database'.padEnd(16), ...dbCells].join(''));
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readSettings();
  log(
    `hot-path CPU per request: ${settings.sides.map((s) => `${s.name}=${s.root}`).join(', ')}; ${settings.items} items, ${settings.requests} requests x ${settings.connections} connections, ${settings.rounds} rounds; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const all: Record<string, Measured[]> = {};
  try {
    for (const dialect of settings.databases) {
      all[dialect] = await benchDatabase(dialect, settings);
      log(table(dialect, settings, all[dialect]));
    }
  } finally {
    await runCleanups(log);
  }
  log(
    `load after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(JSON.stringify({ settings: { ...settings, sides: settings.sides.map((s) => ({ name: s.name, root: s.root })) }, results: all }));
}

main().catch(async (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await runCleanups(log);
  process.exit(1);
});
