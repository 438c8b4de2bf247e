/**
 * The web pages with a full account (issue 47 item 8): 1,200 items, 150 of them on Today. Reports,
 * as one JSON line, Today's HTML size (budget < 150 KB), what one tick in place moves over the
 * network (its request and answer; budget < 20 KB) and the server's time for a tick, median and
 * p99 over many ticks (budget p99 < 100 ms). In-process (fastify inject) on a fresh SQLite file:
 * the server's time without network noise. Not a timed test: run it with
 * `npm run bench:web`. The tick's server
 * time is the wall time of inject (all in this process); tick_cpu_ms_mean is the same work as CPU.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/container.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { ManualClock } from '../src/lib/clock.js';
import { openDatabase } from '../src/open-database.js';
import { storagePortsFor } from '../src/storage-ports.js';

const ITEMS = 1_200;
const ON_TODAY = 150;
const TICKS = 200;

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export interface WebPagesReport {
  items: number;
  today_rows: number;
  today_html_bytes: number;
  tick_transfer_bytes: number;
  tick_server_median_ms: number;
  tick_server_p99_ms: number;
  /** CPU time of this process per tick (process.cpuUsage, user + system): what load on a shared machine moves least. */
  tick_cpu_ms_mean: number;
  budgets_met: boolean;
}

export async function measureWebPages(): Promise<WebPagesReport> {
  const dir = mkdtempSync(join(tmpdir(), 'cin-bench-web-'));
  const handle = openDatabase(`sqlite:${join(dir, 'bench.db')}`);
  try {
    await migrateToLatest(handle.db);
    const clock = new ManualClock(new Date('2026-11-26T10:00:00.000Z'));
    const defaults = loadConfig({});
    const unlimited = { perMinute: 1e9, perDay: 1e9 };
    const config = { ...defaults, limits: { ...defaults.limits, free: unlimited, pro: unlimited } };
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config, inject: { clock } });
    const app = await buildApp({ config, services });
    await app.ready();
    try {
      // A browser: cookies kept, forms posted url-encoded.
      const jar = new Map<string, string>();
      const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>, headers: Record<string, string> = {}) => {
        const payload = form ? new URLSearchParams(form).toString() : undefined;
        const res = await app.inject({
          method,
          url,
          headers: {
            accept: 'text/html',
            'accept-language': 'en-GB',
            cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
            ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
            ...headers,
          },
          ...(payload ? { payload } : {}),
        });
        for (const c of res.cookies as Array<{ name: string; value: string }>) jar.set(c.name, c.value);
        return { res, payload: payload ?? '' };
      };
      const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)![1]!;
      const signup = await send('GET', '/signup');
      await send('POST', '/signup', {
        _csrf: csrfOf(signup.res.body),
        email: 'bench@example.test',
        password: 'correct horse battery',
        timezone: 'Europe/Berlin',
      });
      const userRow = await services.users.requireByEmail('bench@example.test');
      const me = await services.users.me(userRow.id);
      const user = { id: me.id, email: me.email, plan: me.plan, timezone: me.timezone, keyId: null };
      const projects = await Promise.all(
        ['Work', 'Home', 'Errands', 'Reading', 'Garden', 'Health', 'Money', 'Travel'].map((n) => services.projects.findOrCreate(user.id, n)),
      );
      const ids: string[] = [];
      for (let i = 0; i < ITEMS; i += 1) {
        // The first ON_TODAY are due from a week ago to this afternoon; the rest later, or undated.
        const due =
          i < ON_TODAY
            ? new Date(Date.parse('2026-11-19T08:00:00.000Z') + i * 60 * 60_000).toISOString()
            : i % 3 === 0
              ? new Date(Date.parse('2026-11-28T08:00:00.000Z') + i * 3_600_000).toISOString()
              : undefined;
        const { item } = await services.capture.capture(user, {
          text: `Item ${i}: prepare the quarterly notes for the team`,
          project_id: projects[i % projects.length]!.id,
          ...(due ? { due_at: due } : {}),
        });
        if (i < ON_TODAY) ids.push(item.id);
      }

      const today = await send('GET', '/');
      // BENCH_WEB_HTML=<file> keeps Today's page, to see what its bytes are.
      if (process.env.BENCH_WEB_HTML) writeFileSync(process.env.BENCH_WEB_HTML, today.res.body);
      const todayRows = (today.res.body.match(/<li class="item/g) ?? []).length;
      const csrf = csrfOf(today.res.body);
      const times: number[] = [];
      let transfer = 0;
      const cpuBefore = process.cpuUsage();
      for (let n = 0; n < TICKS; n += 1) {
        const id = ids[n % ids.length]!;
        const started = performance.now();
        const tick = await send('POST', `/inbox/items/${id}/toggle`, { _csrf: csrf, return: '/' }, { 'cin-in-place': '1' });
        times.push(performance.now() - started);
        if (tick.res.statusCode !== 200) throw new Error(`tick answered ${tick.res.statusCode}: ${tick.res.body.slice(0, 200)}`);
        // Request line, headers and body both ways, as the network carries them (no compression).
        const headerBytes = (h: Record<string, unknown>) => Object.entries(h).reduce((sum, [k, v]) => sum + k.length + String(v).length + 4, 0);
        // The largest tick is the one the budget speaks of (an item moved to "Done today" answers a longer row).
        transfer = Math.max(transfer, tick.payload.length + Buffer.byteLength(tick.res.body) + headerBytes(tick.res.headers) + 600);
      }
      const cpu = process.cpuUsage(cpuBefore);
      times.sort((a, b) => a - b);
      const report: WebPagesReport = {
        items: ITEMS,
        today_rows: todayRows,
        today_html_bytes: Buffer.byteLength(today.res.body),
        tick_transfer_bytes: transfer,
        tick_server_median_ms: Number(percentile(times, 50).toFixed(1)),
        tick_server_p99_ms: Number(percentile(times, 99).toFixed(1)),
        tick_cpu_ms_mean: Number(((cpu.user + cpu.system) / 1000 / TICKS).toFixed(2)),
        budgets_met: false,
      };
      report.budgets_met = report.today_html_bytes < 150_000 && report.tick_transfer_bytes < 20_000 && report.tick_server_p99_ms < 100;
      return report;
    } finally {
      await app.close();
      await services.close();
    }
  } finally {
    await handle.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('web-pages.js')) {
  measureWebPages().then(
    (report) => console.log(JSON.stringify(report)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
