import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLoopLagMaxMs, formatOrganizeRow, type OrganizeRow } from '../../bench/capture-organize.js';
import { createHttpClient, WebSession } from '../../bench/http-client.js';
import { CONFIGS, readScenarioSettings } from '../../bench/settings.js';
import { startTarget } from '../../bench/targets.js';
import { latencySummary, percentile } from '../../bench/stats.js';
import { THEMES, themedTitles } from '../../bench/themed-items.js';
import { TODOIST_HEADER, todoistCsv } from '../../bench/todoist-csv.js';
import type { PlannedItem, PlannedProject } from '../../src/modules/transfer/import-plan.js';
import { readTodoistCsv } from '../../src/modules/transfer/todoist-csv.js';

describe('scenario statistics', () => {
  it('nearest-rank percentiles of unsorted latencies', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(() => percentile([], 50)).toThrow();
    expect(() => percentile([1], 101)).toThrow();
    expect(latencySummary([3.14, 1.01, 2.26])).toEqual({ n: 3, p50_ms: 2.3, p99_ms: 3.1, max_ms: 3.1 });
  });
});

describe('capture-organize', () => {
  it("reads the server's longest event-loop delay from /metrics, in ms", () => {
    const text = [
      '# HELP nodejs_eventloop_lag_max_seconds The maximum recorded event loop delay.',
      '# TYPE nodejs_eventloop_lag_max_seconds gauge',
      'nodejs_eventloop_lag_max_seconds 0.02301',
      'nodejs_eventloop_lag_p99_seconds 0.0111',
    ].join('\n');
    expect(eventLoopLagMaxMs(text)).toBe(23);
    expect(eventLoopLagMaxMs('nodejs_eventloop_lag_max_seconds{worker="1"} 1.5e-1\n')).toBe(150);
    expect(eventLoopLagMaxMs('nodejs_eventloop_lag_p99_seconds 0.01\n')).toBeUndefined();
  });

  it('titles fall into the themes, the same for the same seed, some with a date phrase', () => {
    const a = themedTitles(400, 7, true);
    expect(themedTitles(400, 7, true)).toEqual(a);
    expect(themedTitles(400, 8, true)).not.toEqual(a);
    const themed = a.filter((t) => t.project !== null);
    expect(themed.length / a.length).toBeGreaterThan(0.75);
    for (const t of themed) expect(t.title.split(' ').some((w) => THEMES[t.project!]!.includes(w))).toBe(true);
    expect(a.some((t) => /tomorrow|friday|next week/.test(t.title))).toBe(true);
  });

  it('a row says each figure and target', () => {
    const s = { n: 10, p50_ms: 12, p99_ms: 40, max_ms: 40 };
    const row: OrganizeRow = {
      database: 'postgres',
      workers: 2,
      items: 2000,
      first_organized_ms: 900,
      organized: s,
      plain: { ...s, p50_ms: 3 },
      decision_p50_ms: 9,
      cpu_organized_ms: 14,
      cpu_plain_ms: 4,
      routed_to_a_project: 7,
      probe_idle: s,
      probe_during: s,
      loop_lag_max_idle_ms: 11,
      loop_lag_max_during_ms: 18,
      main_thread_longest_idle_ms: 2.5,
      main_thread_longest_during_ms: 6.4,
      main_thread_turns_over_20ms: 0,
      peak_rss_mb: 250,
      targets: { organized_p50_under_30ms: true, organized_p99_under_100ms: true, no_stall_over_20ms: true },
    };
    expect(formatOrganizeRow(row)).toMatch(
      /^\[postgres WORKERS=2\] organized p50 12 ms p99 40 ms .*decision ≈ 9 ms.*7\/10 routed.*server CPU per capture 14 ms organized, 4 ms plain.*lag max 18 ms \(idle 11\).*main thread's longest turn 6.4 ms CPU \(idle 2.5; 0 over 20 ms\)/,
    );
  });
});

describe('a Todoist CSV of a whole account', () => {
  const today = new Date('2026-11-29T10:00:00.000Z');

  it("is read by the import as that many tasks, in the Inbox and eight sections' projects, with tags, dates and subtasks", async () => {
    const csv = todoistCsv(2_000, 4, today);
    expect(csv.text.startsWith(`${TODOIST_HEADER}\n`)).toBe(true);
    expect(todoistCsv(2_000, 4, today).text).toBe(csv.text);
    const read = readTodoistCsv(csv.text, { userId: 'u1', now: today, timezone: 'UTC' });
    const plan = { projects: [] as PlannedProject[], items: [] as PlannedItem[], skipped: read.skipped };
    for await (const step of read.steps) {
      if ('project' in step) plan.projects.push(step.project);
      else plan.items.push(step.item);
    }
    expect(plan.items).toHaveLength(2_000);
    expect(plan.projects.map((p) => p.name)).toEqual(['Inbox', 'Work', 'Home', 'Errands', 'Reading', 'Health', 'Money', 'Travel', 'Family']);
    expect(plan.items.filter((i) => i.project_ref === 'inbox')).toHaveLength(800);
    expect(new Set(plan.items.map((i) => i.id)).size).toBe(2_000);
    expect(plan.items.filter((i) => i.due_at?.startsWith('2026-11-29'))).toHaveLength(csv.dueToday);
    expect(csv.dueToday).toBeGreaterThan(10);
    expect(csv.dueUpcoming).toBeGreaterThan(csv.dueToday);
    expect(plan.items.some((i) => i.tags.length > 0)).toBe(true);
    expect(plan.items.some((i) => i.parent_id !== null)).toBe(true);
    expect(plan.skipped).toEqual([]);
  });

  it('keeps 100,000 rows under the import body limit of 20 MiB', () => {
    expect(todoistCsv(100_000, 4, today).text.length).toBeLessThan(20 * 1024 * 1024);
  });
});

describe('scenario settings', () => {
  it('both databases and WORKERS 1 and 2 by default; the bench has a WORKERS=2 config', () => {
    expect(readScenarioSettings({})).toMatchObject({ databases: ['sqlite', 'postgres'], workers: [1, 2] });
    expect(readScenarioSettings({ BENCH_WORKERS: '2', BENCH_DATABASES: 'postgres' })).toMatchObject({ databases: ['postgres'], workers: [2] });
    expect(() => readScenarioSettings({ BENCH_WORKERS: '9' })).toThrow(/BENCH_WORKERS/);
    expect(CONFIGS['workers-2']).toEqual({ WORKERS: '2', LOG_LEVEL: 'info' });
  });
});

describe('the scenario HTTP client', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/set') {
        res.setHeader('set-cookie', ['session=abc; Path=/; HttpOnly', 'csrf=x=y; Path=/']);
        res.end('set');
        return;
      }
      res.end(`cookie: ${req.headers.cookie ?? ''}`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });

  it('keeps cookies from answer to answer, counts a discarded body, and talks to loopback only', async () => {
    const http = createHttpClient(url);
    try {
      const web = new WebSession(http);
      await web.get('/set');
      const echoed = await web.get('/echo');
      expect(echoed.text).toBe('cookie: session=abc; csrf=x=y');
      const counted = await http.call({ method: 'GET', path: '/echo', discardBody: true });
      expect(counted).toMatchObject({ status: 200, text: '', bytes: 'cookie: '.length });
      expect(counted.ms).toBeGreaterThanOrEqual(counted.firstByteMs);
    } finally {
      http.close();
    }
    expect(() => createHttpClient('http://example.com:80')).toThrow(/loopback/);
  });
});

describe("a server's memory window", () => {
  it('sees the growth a request causes after markMemory, and not what the server held before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
    // A server that answers /readyz and, on /grow, holds 64 MB more (touched, so resident).
    const script = join(dir, 'server.cjs');
    writeFileSync(
      script,
      `const held = []; require('node:http').createServer((req, res) => {
        if (req.url === '/grow') held.push(Buffer.alloc(64 * 1024 * 1024, 1));
        res.end('ok');
      }).listen(Number(process.env.PORT), process.env.HOST);`,
    );
    const target = await startTarget({ side: 'service', args: [script], env: { PATH: process.env.PATH }, logFile: join(dir, 'log') });
    try {
      const before = target.markMemory();
      expect(before).toBeGreaterThan(10_000);
      expect(target.memoryPeakSinceMark() - before).toBeLessThan(16 * 1024);
      const http = createHttpClient(target.url);
      await http.call({ method: 'GET', path: '/grow' });
      http.close();
      expect(target.memoryPeakSinceMark() - before).toBeGreaterThan(60 * 1024);
    } finally {
      await target.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
