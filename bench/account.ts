import { loadavg } from 'node:os';
import type { BenchDialect } from './databases.js';
import { installSignalHandlers, interrupted, runCleanups, stopTracked } from './lifecycle.js';
import { startScenarioServer, type ScenarioServer } from './scenario-server.js';
import { readScenarioSettings, scenarioInteger } from './settings.js';
import { latencySummary, round } from './stats.js';
import { todoistCsv } from './todoist-csv.js';

/*
 * npm run bench:account (issue 52 item 4): a full account of 100,000 items, made the way a user
 * moving from Todoist makes it, by POST /import of Todoist's CSV; then the paths that read all of
 * it: /changes from the start, the JSON and Markdown exports, and the web app's Inbox, Today,
 * Upcoming, project and search pages and a tick on Today. Each on SQLite and PostgreSQL, WORKERS=1
 * and 2. Time from the client on loopback; memory as the growth of the server's summed RSS (VmHWM
 * reset before each path) over what it held just before; the import's server CPU too.
 * BENCH_ACCOUNT_PATHS=import stops after the import; BENCH_ACCOUNT_PROFILE=dir writes a CPU profile of
 * each server process there. Method and figures: docs/performance.md.
 */

const SEED = 4;
const API = '/api/v1';
const CHANGES_PAGE = 500;
const QUIET_MAX_MS = 60_000;
const IMPORT_TIMEOUT_MS = 15 * 60_000;
const READ_ALL_TIMEOUT_MS = 10 * 60_000;
const PAGE_TIMEOUT_MS = 60_000;
const SEARCH_WORDS = ['report', 'dentist', 'groceries', 'passport', 'birthday', 'insurance', 'novel', 'kitchen'];

const log = (line: string) => process.stdout.write(`${line}\n`);
const mb = (kb: number) => round(kb / 1024, 1);

interface PathFigures {
  seconds: number;
  rss_growth_mb: number;
}

export interface AccountRow {
  database: BenchDialect;
  workers: number;
  items: number;
  /** `server_cpu_s`: the server processes' CPU during the import, less noisy than its time on a shared machine. */
  import: PathFigures & { csv_mb: number; imported: number; server_cpu_s: number };
  /** The paths after the import; absent with BENCH_ACCOUNT_PATHS=import. */
  changes?: PathFigures & { changes: number; pages: number };
  export_json?: PathFigures & { mb: number; first_byte_ms: number };
  export_markdown?: PathFigures & { mb: number; first_byte_ms: number };
  pages?: Record<string, ReturnType<typeof latencySummary> & { kb: number; server_cpu_ms?: number }>;
  tick?: ReturnType<typeof latencySummary> & { transfer_kb: number };
  peak_rss_mb: number;
  targets: Record<string, boolean>;
}

/** Runs `work` with the server's memory window open: its time in seconds and the RSS growth it caused. */
async function measured<T>(server: ScenarioServer, work: () => Promise<T>): Promise<{ value: T } & PathFigures> {
  await server.target.waitQuiet(QUIET_MAX_MS);
  const before = server.target.markMemory();
  const started = performance.now();
  const value = await work();
  const seconds = round((performance.now() - started) / 1000, 2);
  return { value, seconds, rss_growth_mb: mb(Math.max(0, server.target.memoryPeakSinceMark() - before)) };
}

async function readChanges(server: ScenarioServer, maxPages: number): Promise<{ changes: number; pages: number }> {
  let cursor: string | undefined;
  let changes = 0;
  for (let pages = 1; pages <= maxPages; pages += 1) {
    const query = `limit=${CHANGES_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await server.api.call({ method: 'GET', path: `${API}/changes?${query}`, headers: server.auth });
    if (answer.status !== 200) throw new Error(`/changes answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    const page = JSON.parse(answer.text) as { changes: unknown[]; next_cursor: string; has_more: boolean };
    changes += page.changes.length;
    cursor = page.next_cursor;
    if (!page.has_more) return { changes, pages };
  }
  throw new Error(`/changes still had more after ${maxPages} pages`);
}

async function exportAll(server: ScenarioServer, format: 'json' | 'markdown') {
  const answer = await server.api.call({
    method: 'GET',
    path: `${API}/export?format=${format}`,
    headers: server.auth,
    discardBody: true,
    timeoutMs: READ_ALL_TIMEOUT_MS,
  });
  if (answer.status !== 200) throw new Error(`export ${format} answered ${answer.status}`);
  return { mb: round(answer.bytes / 2 ** 20, 1), first_byte_ms: round(answer.firstByteMs) };
}

/**
 * `samples` GETs of a web page one after another; the last answer's size, and the server's CPU per
 * page (its processes' own, the database server's not): the figure to compare builds by when the
 * machine's load moves the latencies.
 */
async function webPage(server: ScenarioServer, path: string, samples: number) {
  const times: number[] = [];
  let bytes = 0;
  const cpuBefore = server.target.cpuMs();
  for (let i = 0; i < samples; i += 1) {
    const answer = await server.web.get(path, PAGE_TIMEOUT_MS);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    times.push(answer.ms);
    bytes = answer.bytes;
  }
  const cpuMs = samples > 0 ? round((server.target.cpuMs() - cpuBefore) / samples, 2) : 0;
  return { ...latencySummary(times), kb: round(bytes / 1024, 1), server_cpu_ms: cpuMs };
}

/** Ticks on Today, in place (as the web app's script sends them), each item twice so Today ends as it began. */
async function ticks(server: ScenarioServer, samples: number) {
  const today = await server.web.get('/', PAGE_TIMEOUT_MS);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(today.text)?.[1];
  const ids = [...today.text.matchAll(/id="item-([0-9a-f-]{36})"/g)].map((m) => m[1]!);
  if (!csrf || ids.length === 0) throw new Error(`Today has ${ids.length} items and ${csrf ? 'a' : 'no'} CSRF field`);
  const times: number[] = [];
  let transfer = 0;
  for (let i = 0; i < samples; i += 1) {
    const form = new URLSearchParams({ _csrf: csrf, return: '/' }).toString();
    const answer = await server.api.call({
      method: 'POST',
      path: `/inbox/items/${ids[Math.floor(i / 2) % ids.length]!}/toggle`,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', 'cin-in-place': '1', cookie: server.web.cookie() },
      body: form,
    });
    if (answer.status !== 200) throw new Error(`a tick answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    times.push(answer.ms);
    transfer = Math.max(transfer, form.length + answer.bytes);
  }
  return { ...latencySummary(times), transfer_kb: round(transfer / 1024, 1) };
}

async function measure(database: BenchDialect, workers: number, items: number, samples: number, pgAdminUrl: string, importOnly: boolean): Promise<AccountRow> {
  const csv = todoistCsv(items, SEED, new Date());
  const server = await startScenarioServer({
    dialect: database,
    workers,
    pgAdminUrl,
    label: `account_${workers}`,
    // BENCH_ACCOUNT_PROFILE=dir: a V8 CPU profile of each server process, written when it stops.
    ...(process.env['BENCH_ACCOUNT_PROFILE'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_ACCOUNT_PROFILE']}`] } : {}),
  });
  try {
    let cpuBefore = 0;
    const imported = await measured(server, async () => {
      cpuBefore = server.target.cpuMs();
      const answer = await server.api.call({
        method: 'POST',
        path: `${API}/import`,
        headers: { ...server.auth, 'content-type': 'text/csv' },
        body: csv.text,
        timeoutMs: IMPORT_TIMEOUT_MS,
      });
      if (answer.status !== 200) throw new Error(`import answered ${answer.status}: ${answer.text.slice(0, 500)}`);
      return (JSON.parse(answer.text) as { imported: { items: number } }).imported.items;
    });
    const serverCpuS = round((server.target.cpuMs() - cpuBefore) / 1000, 2);
    log(`[${database} WORKERS=${workers}] import of ${items} rows: ${imported.seconds} s, +${imported.rss_growth_mb} MB, server CPU ${serverCpuS} s`);
    const importFigures = {
      seconds: imported.seconds,
      rss_growth_mb: imported.rss_growth_mb,
      csv_mb: round(csv.text.length / 2 ** 20, 1),
      imported: imported.value,
      server_cpu_s: serverCpuS,
    };
    const importTargets = { import_all_rows: imported.value === items, import_under_60s: imported.seconds < 60 };
    if (importOnly) {
      const { peakRssMb } = await server.stop();
      return { database, workers, items, import: importFigures, peak_rss_mb: peakRssMb, targets: importTargets };
    }
    const changes = await measured(server, () => readChanges(server, Math.ceil((items * 2) / CHANGES_PAGE) + 100));
    log(`[${database} WORKERS=${workers}] /changes from the start: ${changes.value.changes} changes in ${changes.seconds} s, +${changes.rss_growth_mb} MB`);
    const json = await measured(server, () => exportAll(server, 'json'));
    const markdown = await measured(server, () => exportAll(server, 'markdown'));
    log(
      `[${database} WORKERS=${workers}] export JSON ${json.value.mb} MB in ${json.seconds} s, +${json.rss_growth_mb} MB; Markdown ${markdown.value.mb} MB in ${markdown.seconds} s, +${markdown.rss_growth_mb} MB`,
    );
    await server.target.waitQuiet(QUIET_MAX_MS);
    const { projects } = JSON.parse((await server.api.call({ method: 'GET', path: `${API}/projects`, headers: server.auth })).text) as {
      projects: Array<{ id: string; is_default: boolean }>;
    };
    const project = projects.find((p) => !p.is_default);
    if (!project) throw new Error('the import made no project');
    const pages: AccountRow['pages'] = {
      inbox: await webPage(server, '/inbox', samples),
      today: await webPage(server, '/', samples),
      upcoming: await webPage(server, '/upcoming', samples),
      project: await webPage(server, `/projects/${project.id}`, samples),
    };
    const searchTimes: number[] = [];
    let searchKb = 0;
    for (let i = 0; i < samples; i += 1) {
      const one = await webPage(server, `/items?q=${SEARCH_WORDS[i % SEARCH_WORDS.length]!}`, 1);
      searchTimes.push(one.p50_ms);
      searchKb = one.kb;
    }
    pages.search = { ...latencySummary(searchTimes), kb: searchKb };
    const tick = await ticks(server, samples);
    for (const [name, p] of Object.entries(pages))
      log(
        `[${database} WORKERS=${workers}] page ${name}: p50 ${p.p50_ms} ms, p99 ${p.p99_ms} ms, ${p.kb} KB${p.server_cpu_ms === undefined ? '' : `, server CPU ${p.server_cpu_ms} ms a page`}`,
      );
    log(`[${database} WORKERS=${workers}] tick on Today: p50 ${tick.p50_ms} ms, p99 ${tick.p99_ms} ms, ${tick.transfer_kb} KB moved`);
    const { peakRssMb } = await server.stop();
    return {
      database,
      workers,
      items,
      import: importFigures,
      changes: { seconds: changes.seconds, rss_growth_mb: changes.rss_growth_mb, ...changes.value },
      export_json: { seconds: json.seconds, rss_growth_mb: json.rss_growth_mb, ...json.value },
      export_markdown: { seconds: markdown.seconds, rss_growth_mb: markdown.rss_growth_mb, ...markdown.value },
      pages,
      tick,
      peak_rss_mb: peakRssMb,
      targets: {
        ...importTargets,
        export_json_under_10s_50mb: json.seconds < 10 && json.rss_growth_mb < 50,
        export_markdown_under_10s_50mb: markdown.seconds < 10 && markdown.rss_growth_mb < 50,
        changes_under_10s: changes.seconds < 10,
        pages_p99_under_50ms: Object.values(pages).every((p) => p.p99_ms < 50),
      },
    };
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  }
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readScenarioSettings(process.env);
  const items = scenarioInteger(process.env, 'BENCH_ACCOUNT_ITEMS', 100_000);
  const samples = scenarioInteger(process.env, 'BENCH_PAGE_SAMPLES', 50);
  const paths = process.env.BENCH_ACCOUNT_PATHS ?? 'all';
  if (paths !== 'all' && paths !== 'import') throw new Error(`BENCH_ACCOUNT_PATHS must be all or import (got ${paths})`);
  const loadBefore = loadavg().map((l) => round(l, 2));
  log(`bench:account: ${items} items through a Todoist CSV import, ${samples} samples a page; load average ${loadBefore.join(' ')}`);
  const rows: AccountRow[] = [];
  for (const database of settings.databases) {
    for (const workers of settings.workers) {
      const row = await measure(database, workers, items, samples, settings.pgAdminUrl, paths === 'import');
      rows.push(row);
      log(`[${database} WORKERS=${workers}] targets: ${JSON.stringify(row.targets)}`);
    }
  }
  log(JSON.stringify({ bench: 'account', loadavg_before: loadBefore, loadavg_after: loadavg().map((l) => round(l, 2)), rows }));
}

if (process.argv[1]?.endsWith('account.js')) {
  main()
    .catch((error: unknown) => {
      if (interrupted()) return;
      process.stderr.write(`bench:account: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(async () => {
      await stopTracked(5_000);
      await runCleanups(log);
    });
}
