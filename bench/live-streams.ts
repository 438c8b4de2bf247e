import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/container.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openDatabase } from '../src/open-database.js';
import { storagePortsFor } from '../src/storage-ports.js';
import { processTree, readMemory } from './proc.js';
import { round } from './stats.js';

/*
 * The live stream's budget (issue 32), on one server process (dist/server.js, SQLite):
 * - memory: the server's RSS with 1,000 idle streams open (100 users x 10) minus its RSS before;
 * - latency: with 100 streams open (one per user), captures one after another by random users,
 *   from sending the capture to the change arriving on its user's stream: p50 and p99.
 */

const USERS = 100;
const STREAMS_PER_USER = 10;
const CAPTURES = 300;
const SETTLE_MS = 2_000;
const STEP_TIMEOUT_MS = 10_000;

export interface LiveStreamsResult {
  idle_streams: number;
  rss_before_mb: number;
  rss_with_idle_streams_mb: number;
  extra_mb_for_idle_streams: number;
  latency_streams: number;
  captures: number;
  capture_to_event_p50_ms: number;
  capture_to_event_p99_ms: number;
  capture_to_event_max_ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => round(kb / 1024, 1);

function startServer(databaseUrl: string, cwd: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const script = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
  const child = spawn(process.execPath, [script], {
    cwd,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_FREE_PER_MINUTE: '1000000000',
      RATE_LIMIT_FREE_PER_DAY: '1000000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ child, baseUrl: url });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => reject(new Error(`the server exited:\n${output}`)));
  });
}

/** Opens a stream; `onChange` gets each change's item title. Resolves once the head arrived. */
function openStream(baseUrl: string, token: string, onChange?: (title: string) => void): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/v1/changes/stream`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      const parser = createParser({ onEvent: (event) => onChange?.((JSON.parse(event.data) as { data: { item: { title: string } } }).data.item.title) });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

async function capture(baseUrl: string, token: string, text: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/v1/capture`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`capture answered ${res.status}`);
}

export async function measureLiveStreams(): Promise<LiveStreamsResult> {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-bench-live-'));
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  const streams: ClientRequest[] = [];
  let server: ChildProcess | undefined;
  try {
    const handle = openDatabase(databaseUrl);
    await migrateToLatest(handle.db);
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig({}) });
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i += 1) {
      const user = await services.users.create({ email: `live${i}@bench.test`, plan: 'free' });
      tokens.push((await services.keys.mint(user.id, 'bench')).token);
    }
    await handle.db.destroy();

    const started = await startServer(databaseUrl, dir);
    server = started.child;
    const { baseUrl } = started;
    const pids = () => processTree(server!.pid!);
    // Warm: every route used below has run once.
    await capture(baseUrl, tokens[0]!, 'warm-up');
    (await openStream(baseUrl, tokens[0]!)).destroy();
    await sleep(SETTLE_MS);
    const before = readMemory(pids()).rssKb;

    for (let s = 0; s < STREAMS_PER_USER; s += 1) {
      const batch = tokens.map((token) => openStream(baseUrl, token));
      streams.push(...(await Promise.all(batch)));
    }
    await sleep(SETTLE_MS);
    const withIdle = readMemory(pids()).rssKb;
    // Keep one stream per user: 100 open streams for the latency run.
    for (const req of streams.splice(USERS)) req.destroy();
    for (const req of streams.splice(0)) req.destroy();
    await sleep(500);

    const waiting = new Map<string, () => void>();
    for (const token of tokens) {
      streams.push(
        await openStream(baseUrl, token, (title) => {
          waiting.get(title)?.();
        }),
      );
    }
    const latencies: number[] = [];
    for (let i = 0; i < CAPTURES; i += 1) {
      const token = tokens[Math.floor(Math.random() * tokens.length)]!;
      const title = `live ${i}`;
      const arrived = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${title} did not arrive`)), STEP_TIMEOUT_MS);
        waiting.set(title, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const sent = performance.now();
      await capture(baseUrl, token, title);
      await arrived;
      latencies.push(performance.now() - sent);
      waiting.delete(title);
    }
    latencies.sort((a, b) => a - b);
    const at = (p: number) => round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!, 2);
    return {
      idle_streams: USERS * STREAMS_PER_USER,
      rss_before_mb: mb(before),
      rss_with_idle_streams_mb: mb(withIdle),
      extra_mb_for_idle_streams: mb(withIdle - before),
      latency_streams: USERS,
      captures: CAPTURES,
      capture_to_event_p50_ms: at(50),
      capture_to_event_p99_ms: at(99),
      capture_to_event_max_ms: round(latencies[latencies.length - 1]!, 2),
    };
  } finally {
    for (const req of streams) req.destroy();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node dist-bench/bench/live-streams.js` runs this scenario alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  measureLiveStreams().then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
