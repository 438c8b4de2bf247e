import { describe, expect, it } from 'vitest';
import { uuidv7Millis } from '../../bench/corpus.js';
import { databaseUrl, loopbackPostgresUrl } from '../../bench/databases.js';
import { parseStat, parseStatusMemory } from '../../bench/proc.js';
import { checkTargets, formatScaling, scalingRows, summarize, type LifeRecord, type RunRecord } from '../../bench/report.js';
import { buildScenarios } from '../../bench/scenarios.js';
import { readSettings } from '../../bench/settings.js';
import { median, roundRatios, spread } from '../../bench/stats.js';

describe('bench statistics', () => {
  it('median of odd and even counts, unsorted input left alone', () => {
    const input = [5, 1, 3];
    expect(median(input)).toBe(3);
    expect(input).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
    expect(spread([2, 9, 4])).toEqual({ median: 4, min: 2, max: 9 });
  });

  it('pairs ratios by round and skips a round whose baseline served nothing', () => {
    expect(roundRatios([50, 60, 70], [100, 0, 140])).toEqual([0.5, 0.5]);
    expect(() => roundRatios([1], [1, 2])).toThrow(/runs/);
  });
});

describe('/proc parsing', () => {
  it('reads VmRSS and VmHWM in kB from /proc/<pid>/status', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  180224 kB\nVmRSS:\t  140000 kB\nThreads:\t11\n';
    expect(parseStatusMemory(status)).toEqual({ rssKb: 140000, hwmKb: 180224 });
    expect(parseStatusMemory('Name:\tzombie\nState:\tZ (zombie)\n')).toBeUndefined();
  });

  it('reads ppid and utime + stime from /proc/<pid>/stat, even with a ) in the command name', () => {
    const stat = '4242 (node (worker) x) S 4200 4242 4242 0 -1 4194560 100 0 0 0 1500 250 0 0 20 0 11 0 123 456 789';
    expect(parseStat(stat)).toEqual({ ppid: 4200, cpuTicks: 1750 });
    expect(parseStat('garbage')).toBeUndefined();
  });

  it('reads this process from the real /proc', async () => {
    const { readFileSync } = await import('node:fs');
    expect(parseStat(readFileSync('/proc/self/stat', 'utf8'))?.ppid).toBe(process.ppid);
    expect(parseStatusMemory(readFileSync('/proc/self/status', 'utf8'))!.rssKb).toBeGreaterThan(1000);
  });
});

describe('bench data', () => {
  it('finds the creation millisecond inside a UUID v7 and refuses other ids', () => {
    expect(uuidv7Millis('019aae8e-d3a0-7c1e-8f3b-0123456789ab')).toBe(0x019aae8ed3a0);
    expect(() => uuidv7Millis('019aae8e-d3a0-4c1e-8f3b-0123456789ab')).toThrow(/v7/);
  });

  it('gives both sides the same requests: get the newest fifth, toggle the next fifth', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `id${i}`); // oldest first
    const data = { ids, captureBodies: ['{"text":"a"}'], searchTerms: ['mil', 'bu'] };
    const [a, b] = [buildScenarios(data), buildScenarios(data)];
    const take = (s: ReturnType<typeof buildScenarios>, name: 'get' | 'toggle' | 'search_one_word', n: number) =>
      Array.from({ length: n }, () => s.get(name)!.next().path);
    expect(take(a, 'get', 3)).toEqual(['/api/v1/items/id9', '/api/v1/items/id8', '/api/v1/items/id9']);
    expect(take(a, 'toggle', 2)).toEqual(['/api/v1/items/id7/toggle', '/api/v1/items/id6/toggle']);
    expect(take(b, 'get', 3)).toEqual(take(buildScenarios(data), 'get', 3));
    expect(take(a, 'search_one_word', 2)).toEqual(['/api/v1/items/search?q=mil', '/api/v1/items/search?q=bu']);
  });
});

describe('bench settings', () => {
  it('defaults to the full comparison and refuses unknown names and bad numbers', () => {
    const s = readSettings({});
    expect(s).toMatchObject({ rounds: 3, durationS: 8, warmupS: 3, items: 100_000, databases: ['sqlite', 'postgres'], connections: 32 });
    expect(s.configs).toEqual(['default', 'workers-2', 'workers-auto', 'log-warn']);
    expect(readSettings({ BENCH_SCALE: '0.05', BENCH_CONFIGS: 'default', BENCH_DATABASES: 'postgres' })).toMatchObject({
      items: 5_000,
      configs: ['default'],
      databases: ['postgres'],
    });
    expect(() => readSettings({ BENCH_DATABASES: 'mysql' })).toThrow(/mysql/);
    expect(() => readSettings({ BENCH_ROUNDS: '0' })).toThrow(/BENCH_ROUNDS/);
    expect(() => readSettings({ BENCH_DURATION_S: '2.5' })).toThrow(/BENCH_DURATION_S/);
  });

  it('sends PostgreSQL traffic only to loopback', () => {
    expect(() => loopbackPostgresUrl('postgres://postgres@db.example.com:5432/postgres')).toThrow(/127\.0\.0\.1/);
    const admin = loopbackPostgresUrl('postgres://postgres@127.0.0.1:5432/postgres');
    expect(databaseUrl(admin, 'bench_1_service')).toBe('postgres://postgres@127.0.0.1:5432/bench_1_service');
  });
});

describe('bench report', () => {
  const run = (side: 'service' | 'baseline', roundNo: number, rps: number, p99 = 10): RunRecord => ({
    database: 'sqlite',
    config: 'default',
    round: roundNo,
    side,
    scenario: 'get',
    rps,
    p50_ms: 1,
    p99_ms: p99,
    requests: rps * 8,
    errors: 0,
    non2xx: side === 'service' && roundNo === 2 ? 3 : 0,
    cpu_ms_per_request: 0.2,
    server_p99_at_most_ms: roundNo === 3 ? 10 : 5,
    other_side_quiet: true,
  });
  const life = (side: 'service' | 'baseline', roundNo: number, ready: number, peak: number): LifeRecord => ({
    database: 'sqlite',
    config: 'default',
    round: roundNo,
    side,
    ready_ms: ready,
    ready_npm_ms: ready + 300,
    rss_at_ready_mb: 80,
    peak_rss_mb: peak,
    hwm_mb: peak,
    log_mb: 0,
  });

  it('ratio = median of the per-round ratios with their range; medians per side; errors summed', () => {
    const runs = [
      run('service', 1, 800),
      run('baseline', 1, 1000),
      run('service', 2, 900),
      run('baseline', 2, 1000),
      run('service', 3, 500, 40),
      run('baseline', 3, 1000),
    ];
    const lives = [1, 2, 3].flatMap((n) => [life('service', n, 900 + n, 150 + n), life('baseline', n, 400, 100)]);
    const s = summarize('sqlite', 'default', runs, lives);
    expect(s.rounds).toBe(3);
    expect(s.scenarios).toHaveLength(1);
    const get = s.scenarios[0]!;
    expect(get.ratio).toEqual({ median: 0.8, min: 0.5, max: 0.9 });
    expect(get.service).toMatchObject({ rps: 800, p99_ms: 10, non2xx: 3, server_p99_at_most_ms: 10 });
    expect(s.service).toMatchObject({ ready_ms: { median: 902, min: 901, max: 903 }, ready_npm_ms: { median: 1202, min: 1201, max: 1203 }, peak_rss_mb: 153 });
    const targets = checkTargets(s);
    expect(targets.no_errors).toBe(false);
    expect(targets.ready_under_1s).toBe(true);
    // Through npm start 1,202 ms against the baseline's 700: more than 1.25 times.
    expect(targets.ready_through_npm_start_at_most_1_25x_baseline).toBe(false);
    expect(targets.peak_rss_at_most_twice_baseline).toBe(true);
    expect(targets.rss_at_ready_under_100mb).toBe(true);
  });

  it('puts a WORKERS=2 row beside WORKERS=1: the change in the service req/s and both ratios', () => {
    const lives = [life('service', 1, 900, 150), life('baseline', 1, 400, 100)];
    const one = summarize('sqlite', 'default', [run('service', 1, 800), run('baseline', 1, 1000)], lives);
    const twoRuns = [run('service', 1, 1200), run('baseline', 1, 1000)].map((r) => ({ ...r, config: 'workers-2' }));
    const two = summarize(
      'sqlite',
      'workers-2',
      twoRuns,
      lives.map((l) => ({ ...l, config: 'workers-2' })),
    );
    const rows = scalingRows(two, one);
    expect(rows).toEqual([{ scenario: 'get', config: 'workers-2', times_one_process: 1.5, ratio: 1.2, ratio_one_process: 0.8 }]);
    expect(formatScaling(rows, 'sqlite')).toMatch(/workers-2 beside default[\s\S]*get\s+1\.20\s+0\.80\s+1\.50/);
  });
});
