import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { openSse, type SseReader } from '../helpers/sse-reader.js';
import { defaultServices } from '../helpers/test-app.js';
import { createTestDb, type TestDb } from '../helpers/test-db.js';
import { waitFor } from '../helpers/wait.js';

vi.setConfig({ testTimeout: 60_000 });
const execFileAsync = promisify(execFile);

/*
 * Live changes across processes, with the real dist/server.js (built by `npm run build`): on
 * PostgreSQL two independent servers on one database (LISTEN/NOTIFY), on SQLite a primary with two
 * workers on one file (the primary relays wake-ups). A capture answered by one process reaches the
 * streams opened on the other within 1 s. And SIGTERM ends open streams at once.
 */

/** A capture on a connection of its own (no keep-alive), so a cluster's workers take turns; resolves when answered. */
function captureOnce(baseUrl: string, token: string, text: string): Promise<number> {
  const payload = JSON.stringify({ text });
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/api/v1/capture`,
      {
        agent: false,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface LogLine {
  pid: number;
  msg: string;
  url?: string;
  method?: string;
}
const logLines = (output: string): LogLine[] =>
  output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });

describe.each(DIALECTS)('live changes across processes (%s)', (dialect) => {
  let db: TestDb;
  let token: string;
  let services: ReturnType<typeof defaultServices>;
  let userId: string;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const readers: SseReader[] = [];

  beforeAll(async () => {
    db = await createTestDb(dialect);
    services = defaultServices(db.handle);
    const user = await services.users.create({ email: `live-${dialect}@example.test`, plan: 'pro' });
    userId = user.id;
    token = (await services.keys.mint(user.id, 'live process test')).token;
    const separator = db.url.includes('?') ? '&' : '?';
    env = { DATABASE_URL: db.searchPath ? `${db.url}${separator}options=${encodeURIComponent(`-c search_path=${db.searchPath}`)}` : db.url };
  });

  // Each test's servers stop before the next starts its own: one server per SQLite file (decisions/0067).
  afterEach(async () => {
    for (const reader of readers.splice(0)) reader.close();
    for (const server of servers.splice(0)) await server.stop();
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const stream = async (baseUrl: string) => {
    const reader = await openSse(`${baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${token}` });
    readers.push(reader);
    expect(reader.status).toBe(200);
    return reader;
  };

  it('delivers a capture answered by one process to the streams of another within 1 s', async () => {
    let baseUrls: [string, string];
    let output: () => string;
    if (dialect === 'sqlite') {
      const listening = (text: string) => logLines(text).filter((l) => l.msg.startsWith('Server listening')).length;
      const cluster = await startServerProcess({ ...env, WORKERS: '2' }, 30_000, { ready: (text) => listening(text) >= 2 });
      servers.push(cluster);
      baseUrls = [cluster.baseUrl, cluster.baseUrl];
      output = cluster.output;
    } else {
      const one = await startServerProcess(env);
      const two = await startServerProcess(env);
      servers.push(one, two);
      baseUrls = [one.baseUrl, two.baseUrl];
      output = () => one.output() + two.output();
    }
    // Four streams and four captures, alternating: in a cluster the primary hands connections to the workers in turn.
    const streams: SseReader[] = [];
    for (let i = 0; i < 4; i += 1) streams.push(await stream(baseUrls[i % 2]!));
    await waitFor(() => logLines(output()).filter((l) => l.msg === 'change stream opened').length >= 4, { what: 'four streams opened' });
    const latencies: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const status = await captureOnce(baseUrls[(i + 1) % 2]!, token, `capture ${i}`);
      expect(status).toBe(201);
      const answered = performance.now();
      await Promise.all(streams.map((s) => s.waitForEvents(i + 1, 5_000)));
      latencies.push(performance.now() - answered);
    }
    for (const s of streams) expect(s.events.map((e) => JSON.parse(e.data).data.item.title)).toEqual(['capture 0', 'capture 1', 'capture 2', 'capture 3']);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    // Streams and captures were on more than one process, so some change crossed between them.
    const lines = logLines(output());
    const streamPids = new Set(lines.filter((l) => l.msg === 'change stream opened').map((l) => l.pid));
    const capturePids = new Set(lines.filter((l) => l.msg === 'request' && l.url === '/api/v1/capture').map((l) => l.pid));
    expect(streamPids.size).toBe(2);
    expect(capturePids.size).toBe(2);
  });

  it('holds the 10-stream cap across processes: of 11 streams opened in turn on both, one is refused', async () => {
    const other = await services.users.create({ email: `live-cap-${dialect}@example.test`, plan: 'pro' });
    const otherToken = (await services.keys.mint(other.id, 'cap')).token;
    let baseUrls: [string, string];
    if (dialect === 'sqlite') {
      const cluster = await startServerProcess({ ...env, WORKERS: '2' }, 30_000, {
        ready: (text) => logLines(text).filter((l) => l.msg.startsWith('Server listening')).length >= 2,
      });
      servers.push(cluster);
      baseUrls = [cluster.baseUrl, cluster.baseUrl];
    } else {
      const one = await startServerProcess(env);
      const two = await startServerProcess(env);
      servers.push(one, two);
      baseUrls = [one.baseUrl, two.baseUrl];
    }
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const reader = await openSse(`${baseUrls[i % 2]!}/api/v1/changes/stream`, { authorization: `Bearer ${otherToken}` });
      readers.push(reader);
      if (reader.status !== 200) await reader.waitForEnd();
      statuses.push(reader.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });

  it('ends the streams of a key the admin CLI revokes (another program on the database) within 5 s', async () => {
    const server = await startServerProcess(env);
    servers.push(server);
    const key = await services.keys.mint(userId, 'revoked from the CLI');
    const reader = await openSse(`${server.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${key.token}` });
    readers.push(reader);
    expect(reader.status).toBe(200);
    await execFileAsync(process.execPath, [resolve(import.meta.dirname, '../../dist/cli/admin.js'), 'key', 'revoke', '--key-id', key.key_id], {
      env: { ...process.env, ...env },
      // Loading the CLI alone took 16-20 s on a loaded two-core machine (main's build too).
      timeout: 60_000,
    });
    await reader.waitForEnd(5_000);
  });

  it('ends open streams promptly on SIGTERM (no wait for a keep-alive), and the process exits 0', async () => {
    const server = await startServerProcess(env);
    servers.push(server);
    const streams = [await stream(server.baseUrl), await stream(server.baseUrl)];
    const started = performance.now();
    const exited = server.stop();
    await Promise.all(streams.map((s) => s.waitForEnd(5_000)));
    expect(await exited).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
