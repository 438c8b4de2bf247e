import { loadavg } from 'node:os';
import { seedCaldavAccount, type CaldavSeed } from './caldav-seed.js';
import type { BenchDialect } from './databases.js';
import type { HttpAnswer } from './http-client.js';
import { installSignalHandlers, interrupted, runCleanups, stopTracked } from './lifecycle.js';
import { startScenarioServer, type ScenarioServer } from './scenario-server.js';
import { readScenarioSettings, scenarioInteger } from './settings.js';
import { latencySummary, round } from './stats.js';

/*
 * npm run bench:caldav (issue 49's speed targets): through HTTP against `node dist/server.js` on a
 * fresh database, one Pro user with a calendar home of 100 projects, one of them holding 10,000
 * todos. Three paths, each repeated: a sync-collection REPORT that answers 100 changes (100 items
 * edited through the API after the token was taken; the same token each time, so every sample
 * answers the same 100), a full calendar-query of the 10,000 with their calendar-data (time to
 * first byte, to the last byte, and the growth of the server's RSS while it streams), and a
 * PROPFIND Depth 1 of the home. Each on SQLite and PostgreSQL, WORKERS=1 by default. Time from the
 * client on loopback, so a loaded machine adds to it: docs/performance.md says how to read it.
 */

const QUIET_MAX_MS = 60_000;
const QUERY_TIMEOUT_MS = 5 * 60_000;
const SYNC_CHANGES = 100;
const XML = { 'content-type': 'application/xml; charset=utf-8' };

const SYNC_BODY = (token: string) =>
  `<d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/><c:calendar-data/></d:prop></d:sync-collection>`;
const QUERY_BODY =
  '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>';
// What DAVx⁵ and iOS ask of a home (decisions/0080 lists the discovery sequences).
const HOME_BODY =
  '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><d:displayname/><cs:getctag/><d:sync-token/><c:supported-calendar-component-set/><d:current-user-privilege-set/></d:prop></d:propfind>';
const TOKEN_BODY = '<d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>';

const log = (line: string) => process.stdout.write(`${line}\n`);
const mb = (kb: number) => round(kb / 1024, 1);
const responses = (text: string) => text.split('<d:response>').length - 1;

export interface CaldavRow {
  database: BenchDialect;
  workers: number;
  projects: number;
  items: number;
  sync_100: ReturnType<typeof latencySummary> & { responses: number; kb: number };
  calendar_query: ReturnType<typeof latencySummary> & { responses: number; mb: number; first_byte_p50_ms: number; rss_growth_mb: number };
  propfind_home: ReturnType<typeof latencySummary> & { responses: number; kb: number };
  server_cpu_ms_per_request: { sync_100: number; calendar_query: number; propfind_home: number };
  peak_rss_mb: number;
  targets: Record<string, boolean>;
}

function expect207(answer: HttpAnswer, what: string): HttpAnswer {
  if (answer.status !== 207) throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer;
}

/** `samples` calls of `one`, each time and the server's CPU per call. */
async function repeated(server: ScenarioServer, samples: number, one: () => Promise<HttpAnswer>) {
  const times: number[] = [];
  let last: HttpAnswer | undefined;
  const cpuBefore = server.target.cpuMs();
  for (let i = 0; i < samples; i += 1) {
    last = await one();
    times.push(last.ms);
  }
  return { last: last!, summary: latencySummary(times), cpuMs: round((server.target.cpuMs() - cpuBefore) / samples) };
}

async function measure(
  database: BenchDialect,
  workers: number,
  o: { projects: number; items: number; samples: number; querySamples: number; pgAdminUrl: string },
) {
  let seed: CaldavSeed | undefined;
  const server = await startScenarioServer({
    dialect: database,
    workers,
    pgAdminUrl: o.pgAdminUrl,
    label: `caldav_${workers}`,
    seed: async (url, userId) => {
      seed = await seedCaldavAccount(url, userId, { projects: o.projects, items: o.items });
    },
  });
  try {
    if (!seed) throw new Error('the seed did not run');
    const token = server.auth.authorization.slice('Bearer '.length);
    const basic = { authorization: `Basic ${Buffer.from(`bench:${token}`).toString('base64')}` };
    const collection = `/dav/calendars/${seed.bigProjectId}/`;
    const dav = (method: 'PROPFIND' | 'REPORT', path: string, body: string, depth: string, timeoutMs?: number, discardBody = false) =>
      server.api.call({ method, path, headers: { ...basic, ...XML, depth }, body, discardBody, ...(timeoutMs ? { timeoutMs } : {}) });

    // The token, then 100 edits: every sync from it answers those 100.
    const tokenAnswer = expect207(await dav('PROPFIND', collection, TOKEN_BODY, '0'), 'PROPFIND of the sync-token');
    const syncToken = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(tokenAnswer.text)?.[1];
    if (!syncToken) throw new Error('the collection has no sync-token');
    for (const id of seed.itemIds.slice(-SYNC_CHANGES)) {
      const edit = await server.api.call({
        method: 'PATCH',
        path: `/api/v1/items/${id}`,
        headers: { ...server.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `edited ${id.slice(-6)}` }),
      });
      if (edit.status !== 200) throw new Error(`PATCH answered ${edit.status}: ${edit.text.slice(0, 300)}`);
    }
    await server.target.waitQuiet(QUIET_MAX_MS);
    const sync = await repeated(server, o.samples, async () => expect207(await dav('REPORT', collection, SYNC_BODY(syncToken), '1'), 'sync-collection'));
    if (responses(sync.last.text) !== SYNC_CHANGES) throw new Error(`sync-collection answered ${responses(sync.last.text)} responses, not ${SYNC_CHANGES}`);
    log(
      `[${database} WORKERS=${workers}] sync-collection of ${SYNC_CHANGES} changes: p50 ${sync.summary.p50_ms} ms, p99 ${sync.summary.p99_ms} ms, ${sync.cpuMs} ms CPU each`,
    );

    await server.target.waitQuiet(QUIET_MAX_MS);
    const check = expect207(await dav('REPORT', collection, QUERY_BODY, '1', QUERY_TIMEOUT_MS), 'calendar-query');
    const listed = responses(check.text);
    if (listed !== o.items) throw new Error(`calendar-query answered ${listed} responses, not ${o.items}`);
    await server.target.waitQuiet(QUIET_MAX_MS);
    const rssBefore = server.target.markMemory();
    const firstBytes: number[] = [];
    const query = await repeated(server, o.querySamples, async () => {
      const answer = expect207(await dav('REPORT', collection, QUERY_BODY, '1', QUERY_TIMEOUT_MS, true), 'calendar-query');
      firstBytes.push(answer.firstByteMs);
      return answer;
    });
    const rssGrowth = mb(Math.max(0, server.target.memoryPeakSinceMark() - rssBefore));
    const firstByteP50 = latencySummary(firstBytes).p50_ms;
    log(
      `[${database} WORKERS=${workers}] calendar-query of ${o.items} todos: p50 ${query.summary.p50_ms} ms, p99 ${query.summary.p99_ms} ms, first byte p50 ${firstByteP50} ms, ${round(query.last.bytes / 2 ** 20, 1)} MB, RSS +${rssGrowth} MB, ${query.cpuMs} ms CPU each`,
    );

    await server.target.waitQuiet(QUIET_MAX_MS);
    const home = await repeated(server, o.samples, async () => expect207(await dav('PROPFIND', '/dav/calendars/', HOME_BODY, '1'), 'PROPFIND of the home'));
    // The home itself, its projects and `notes`.
    if (responses(home.last.text) < o.projects + 2) throw new Error(`the home answered ${responses(home.last.text)} responses`);
    log(
      `[${database} WORKERS=${workers}] PROPFIND Depth 1 of a home of ${o.projects} projects: p50 ${home.summary.p50_ms} ms, p99 ${home.summary.p99_ms} ms, ${home.cpuMs} ms CPU each`,
    );

    const { peakRssMb } = await server.stop();
    return {
      database,
      workers,
      projects: o.projects,
      items: o.items,
      sync_100: { ...sync.summary, responses: responses(sync.last.text), kb: round(sync.last.bytes / 1024, 1) },
      calendar_query: {
        ...query.summary,
        responses: listed,
        mb: round(query.last.bytes / 2 ** 20, 1),
        first_byte_p50_ms: firstByteP50,
        rss_growth_mb: rssGrowth,
      },
      propfind_home: { ...home.summary, responses: responses(home.last.text), kb: round(home.last.bytes / 1024, 1) },
      server_cpu_ms_per_request: { sync_100: sync.cpuMs, calendar_query: query.cpuMs, propfind_home: home.cpuMs },
      peak_rss_mb: peakRssMb,
      targets: {
        sync_100_under_100ms: sync.summary.p99_ms < 100,
        calendar_query_under_2s: query.summary.p99_ms < 2000,
        propfind_home_under_50ms: home.summary.p99_ms < 50,
      },
    } satisfies CaldavRow;
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  }
}

async function main(): Promise<void> {
  installSignalHandlers(log);
  const settings = readScenarioSettings({ BENCH_WORKERS: '1', ...process.env });
  const projects = scenarioInteger(process.env, 'BENCH_CALDAV_PROJECTS', 100, 2);
  const items = scenarioInteger(process.env, 'BENCH_CALDAV_ITEMS', 10_000, SYNC_CHANGES);
  const samples = scenarioInteger(process.env, 'BENCH_CALDAV_SAMPLES', 50);
  const querySamples = scenarioInteger(process.env, 'BENCH_CALDAV_QUERY_SAMPLES', 5);
  const loadBefore = loadavg().map((l) => round(l, 2));
  log(
    `bench:caldav: ${projects} projects, ${items} todos in one; ${samples} samples (${querySamples} of calendar-query); load average ${loadBefore.join(' ')}`,
  );
  const rows: CaldavRow[] = [];
  for (const database of settings.databases) {
    for (const workers of settings.workers) {
      const row = await measure(database, workers, { projects, items, samples, querySamples, pgAdminUrl: settings.pgAdminUrl });
      rows.push(row);
      log(`[${database} WORKERS=${workers}] targets: ${JSON.stringify(row.targets)}`);
    }
  }
  log(JSON.stringify({ bench: 'caldav', loadavg_before: loadBefore, loadavg_after: loadavg().map((l) => round(l, 2)), rows }));
}

if (process.argv[1]?.endsWith('caldav.js')) {
  main()
    .catch((error: unknown) => {
      if (interrupted()) return;
      process.stderr.write(`bench:caldav: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(async () => {
      await stopTracked(5_000);
      await runCleanups(log);
    });
}
