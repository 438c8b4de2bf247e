import type { BenchDialect } from './databases.js';
import type { RunFigures } from './load-generator.js';
import { REPORT_ORDER, type ScenarioName } from './scenarios.js';
import { median, round, roundRatios, spread, type Spread } from './stats.js';
import type { Side } from './targets.js';

/** One timed run of one scenario against one side. */
export interface RunRecord extends RunFigures {
  database: BenchDialect;
  config: string;
  round: number;
  side: Side;
  scenario: ScenarioName;
  /** CPU time of the server's own processes per answered request (not the database server's). */
  cpu_ms_per_request: number;
  /**
   * The bucket bound of the server's own duration histogram that holds the run's p99 (bench/server-latency.ts):
   * time from the server's first look at a request to its answer, without the wait outside. Null with several processes.
   */
  server_p99_at_most_ms: number | null;
  /** Whether the other side was idle (under 5 % of a core) when this run started. */
  other_side_quiet: boolean;
}

/** One life of one server: started for a round, stopped after it. */
export interface LifeRecord {
  database: BenchDialect;
  config: string;
  round: number;
  side: Side;
  ready_ms: number;
  /** Spawn to ready through `npm start` (a separate start after the round, as a user types it). */
  ready_npm_ms: number;
  rss_at_ready_mb: number;
  peak_rss_mb: number;
  hwm_mb: number;
  /** Size of the server's log (stdout and stderr) for the round. */
  log_mb: number;
}

export interface SideFigures {
  /** Medians over the rounds. */
  rps: number;
  p99_ms: number;
  /** The rounds' highest server-side p99 bound (null when no round had one). */
  server_p99_at_most_ms: number | null;
  cpu_ms_per_request: number;
  /** Sums over the rounds. */
  errors: number;
  non2xx: number;
}

export interface ScenarioSummary {
  scenario: ScenarioName;
  service: SideFigures;
  baseline: SideFigures;
  /** service ÷ baseline: the median of the per-round ratios, and their range. */
  ratio: Spread | null;
}

export interface ProcessSummary {
  ready_ms: Spread;
  ready_npm_ms: Spread;
  rss_at_ready_mb: number;
  /** The highest of the rounds. */
  peak_rss_mb: number;
  hwm_mb: number;
}

export interface ConfigSummary {
  database: BenchDialect;
  config: string;
  rounds: number;
  scenarios: ScenarioSummary[];
  service: ProcessSummary;
  baseline: ProcessSummary;
}

const mb = (kb: number) => round(kb / 1024, 1);
export const kbToMb = mb;

/** The highest of the rounds' bounds: a bound holds for every round only if it holds for the worst. */
function worstBound(bounds: ReadonlyArray<number | null>): number | null {
  const known = bounds.filter((b): b is number => b !== null);
  return known.length === 0 ? null : Math.max(...known);
}

function sideFigures(runs: readonly RunRecord[]): SideFigures {
  return {
    rps: round(median(runs.map((r) => r.rps))),
    p99_ms: round(median(runs.map((r) => r.p99_ms)), 2),
    server_p99_at_most_ms: worstBound(runs.map((r) => r.server_p99_at_most_ms)),
    cpu_ms_per_request: round(median(runs.map((r) => r.cpu_ms_per_request)), 3),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
  };
}

function processSummary(lives: readonly LifeRecord[]): ProcessSummary {
  const rounded = (values: number[]): Spread => {
    const { median: m, min, max } = spread(values);
    return { median: Math.round(m), min: Math.round(min), max: Math.round(max) };
  };
  return {
    ready_ms: rounded(lives.map((l) => l.ready_ms)),
    ready_npm_ms: rounded(lives.map((l) => l.ready_npm_ms)),
    rss_at_ready_mb: round(median(lives.map((l) => l.rss_at_ready_mb))),
    peak_rss_mb: round(Math.max(...lives.map((l) => l.peak_rss_mb))),
    hwm_mb: round(Math.max(...lives.map((l) => l.hwm_mb))),
  };
}

const byRound = (a: RunRecord, b: RunRecord) => a.round - b.round;

/** The figures of one database and config, from its runs and server lives. */
export function summarize(database: BenchDialect, config: string, runs: readonly RunRecord[], lives: readonly LifeRecord[]): ConfigSummary {
  const mine = runs.filter((r) => r.database === database && r.config === config);
  const scenarios: ScenarioSummary[] = [];
  for (const scenario of REPORT_ORDER) {
    const service = mine.filter((r) => r.scenario === scenario && r.side === 'service').sort(byRound);
    const baseline = mine.filter((r) => r.scenario === scenario && r.side === 'baseline').sort(byRound);
    if (service.length === 0 || baseline.length === 0) continue;
    // Pair the runs of the same round; a round missing on one side has no ratio.
    const rounds = service.map((r) => r.round).filter((n) => baseline.some((b) => b.round === n));
    const pick = (list: RunRecord[]) => rounds.map((n) => list.find((r) => r.round === n)!.rps);
    const ratios = roundRatios(pick(service), pick(baseline));
    const ratio = ratios.length === 0 ? null : spread(ratios);
    scenarios.push({
      scenario,
      service: sideFigures(service),
      baseline: sideFigures(baseline),
      ratio: ratio && { median: round(ratio.median, 2), min: round(ratio.min, 2), max: round(ratio.max, 2) },
    });
  }
  const lifeOf = (side: Side) => lives.filter((l) => l.database === database && l.config === config && l.side === side);
  const serviceLives = lifeOf('service');
  const baselineLives = lifeOf('baseline');
  if (serviceLives.length === 0 || baselineLives.length === 0) throw new Error(`no server lives for ${database} ${config}`);
  return {
    database,
    config,
    rounds: new Set(mine.map((r) => r.round)).size,
    scenarios,
    service: processSummary(serviceLives),
    baseline: processSummary(baselineLives),
  };
}

/** The issue's "done when", checked on the headline (default settings) figures of one database. */
export function checkTargets(s: ConfigSummary): Record<string, boolean> {
  const ratio = (name: ScenarioName) => s.scenarios.find((x) => x.scenario === name)?.ratio?.median ?? 0;
  const search = s.scenarios.find((x) => x.scenario === 'search_one_word');
  const targets: Record<string, boolean> = {
    capture_toggle_get_list_ratio_at_least_0_70: (['capture', 'toggle', 'get', 'list_50'] as const).every((n) => ratio(n) >= 0.7),
    [`search_ratio_at_least_${s.database === 'sqlite' ? 3 : 1}`]: ratio('search_one_word') >= (s.database === 'sqlite' ? 3 : 1),
    no_errors: s.scenarios.every((x) => x.service.errors === 0 && x.service.non2xx === 0),
    ready_under_1s: s.service.ready_ms.median < 1000,
    ready_through_npm_start_at_most_1_25x_baseline: s.service.ready_npm_ms.median <= 1.25 * s.baseline.ready_npm_ms.median,
    rss_at_ready_under_100mb: s.service.rss_at_ready_mb < 100,
    peak_rss_at_most_twice_baseline: s.service.peak_rss_mb <= 2 * s.baseline.peak_rss_mb,
  };
  if (s.database === 'sqlite') {
    targets.search_p99_under_50ms = (search?.service.p99_ms ?? Infinity) < 50;
    // The same question asked of the server's own histogram: every round's p99 bound at most 50 ms.
    targets.search_p99_at_most_50ms_in_server = (search?.service.server_p99_at_most_ms ?? Infinity) <= 50;
  }
  return targets;
}

const pad = (v: string | number, n: number) => String(v).padStart(n);
const fmtRatio = (r: Spread | null) => (r === null ? 'n/a' : `${r.median.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)})`);

/** A readable table of one database and config. */
export function formatSummary(s: ConfigSummary, describe: string): string {
  const lines = [
    `${s.database} · ${s.config} (${describe}) · ${s.rounds} round(s)`,
    `  ${'scenario'.padEnd(16)}${pad('service r/s', 12)}${pad('baseline r/s', 13)}  ${'ratio (min–max)'.padEnd(19)}${pad('p99 ms svc / base', 20)}${pad('server p99 ≤ svc / base', 25)}${pad('CPU ms/req svc / base', 24)}${pad('err+non2xx svc / base', 24)}`,
  ];
  for (const x of s.scenarios) {
    lines.push(
      `  ${x.scenario.padEnd(16)}${pad(x.service.rps, 12)}${pad(x.baseline.rps, 13)}  ${fmtRatio(x.ratio).padEnd(19)}${pad(`${x.service.p99_ms} / ${x.baseline.p99_ms}`, 20)}${pad(`${x.service.server_p99_at_most_ms ?? '?'} / ${x.baseline.server_p99_at_most_ms ?? '?'}`, 25)}${pad(`${x.service.cpu_ms_per_request} / ${x.baseline.cpu_ms_per_request}`, 24)}${pad(`${x.service.errors + x.service.non2xx} / ${x.baseline.errors + x.baseline.non2xx}`, 24)}`,
    );
  }
  for (const side of ['service', 'baseline'] as const) {
    const p = s[side];
    lines.push(
      `  ${side.padEnd(9)} ready ${p.ready_ms.median} ms (${p.ready_ms.min}–${p.ready_ms.max}), through npm start ${p.ready_npm_ms.median} ms (${p.ready_npm_ms.min}–${p.ready_npm_ms.max}), RSS at ready ${p.rss_at_ready_mb} MB, peak RSS ${p.peak_rss_mb} MB (summed VmHWM ${p.hwm_mb} MB)`,
    );
  }
  return lines.join('\n');
}

/** One scenario's service throughput under another config against WORKERS=1 (the default config), measured in the same run. */
export interface ScalingRow {
  scenario: ScenarioName;
  config: string;
  /** The config's median service req/s ÷ the default's. */
  times_one_process: number;
  /** Both configs' ratios to the baseline, side by side. */
  ratio: number | null;
  ratio_one_process: number | null;
}

export function scalingRows(s: ConfigSummary, one: ConfigSummary): ScalingRow[] {
  return s.scenarios.flatMap((x) => {
    const base = one.scenarios.find((o) => o.scenario === x.scenario);
    if (!base || base.service.rps <= 0) return [];
    return [
      {
        scenario: x.scenario,
        config: s.config,
        times_one_process: round(x.service.rps / base.service.rps, 2),
        ratio: x.ratio?.median ?? null,
        ratio_one_process: base.ratio?.median ?? null,
      },
    ];
  });
}

/** "Beside WORKERS=1": a config's rows with the default's ratio and the change in the service's req/s. */
export function formatScaling(rows: readonly ScalingRow[], database: BenchDialect): string {
  if (rows.length === 0) return '';
  const lines = [
    `${database} · ${rows[0]!.config} beside default (WORKERS=1)`,
    `  ${'scenario'.padEnd(16)}${pad('ratio', 8)}${pad('WORKERS=1 ratio', 17)}${pad('× one process', 15)}`,
  ];
  for (const r of rows) {
    lines.push(
      `  ${r.scenario.padEnd(16)}${pad(r.ratio?.toFixed(2) ?? 'n/a', 8)}${pad(r.ratio_one_process?.toFixed(2) ?? 'n/a', 17)}${pad(r.times_one_process.toFixed(2), 15)}`,
    );
  }
  return lines.join('\n');
}
