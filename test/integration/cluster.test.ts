import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/open-database.js';
import { removeRedisKeys, testRedis, type TestRedis } from '../helpers/redis.js';
import { startServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { defaultServices } from '../helpers/test-app.js';

/*
 * WORKERS=2: the real dist/server.js (built by `npm test`) as a primary and two workers on one
 * port, against SQLite (the database that shares a file between processes; PostgreSQL is a server
 * that any number of processes already share). Connections are opened fresh for each request so the
 * primary hands them to both workers in turn.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a connection of its own (no keep-alive agent), so workers alternate. */
function send(baseUrl: string, path: string, options: { token?: string; method?: string; body?: unknown } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      {
        agent: false,
        method: options.method ?? 'GET',
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

interface Cluster {
  baseUrl: string;
  primary: ChildProcess;
  output(): string;
  /** Pids of the workers that logged `Server listening`, in order. */
  listening(): number[];
  /** Pids of the workers that logged a completed request for `path`. */
  servedBy(path: string): Set<number>;
  exited: Promise<number | null>;
}

const logLines = (output: string) =>
  output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as { pid: number; msg: string; url?: string }];
    } catch {
      return [];
    }
  });

async function startCluster(env: Record<string, string>): Promise<Cluster> {
  const listeningIn = (output: string) =>
    logLines(output)
      .filter((l) => l.msg.startsWith('Server listening'))
      .map((l) => l.pid);
  const server = await startServerProcess({ WORKERS: '2', ...env }, 30_000, { ready: (output) => listeningIn(output).length >= 2 });
  const servedBy = (path: string) => {
    // One log line per answered request (src/plugins/request-log.ts), by the worker that answered.
    return new Set(
      logLines(server.output())
        .filter((l) => l.msg === 'request' && l.url === path)
        .map((l) => l.pid),
    );
  };
  return {
    baseUrl: server.baseUrl,
    primary: server.child,
    output: server.output,
    listening: () => listeningIn(server.output()),
    servedBy,
    exited: server.exited,
  };
}

async function stopCluster(cluster: Cluster): Promise<number | null> {
  if (cluster.primary.exitCode === null && cluster.primary.signalCode === null) cluster.primary.kill('SIGTERM');
  const timer = setTimeout(() => cluster.primary.kill('SIGKILL'), 20_000);
  try {
    return await cluster.exited;
  } finally {
    clearTimeout(timer);
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits out the last seconds of a UTC minute, so a test's requests share one rate-limit window. */
async function awayFromMinuteEnd(neededSeconds: number): Promise<void> {
  const intoMinute = (Date.now() % 60_000) / 1000;
  if (intoMinute > 60 - neededSeconds) await new Promise((r) => setTimeout(r, (60 - intoMinute + 0.5) * 1000));
}

async function seedUser(url: string, email: string): Promise<string> {
  const handle = openDatabase(url);
  try {
    const services = defaultServices(handle);
    const user = await services.users.create({ email, plan: 'free' });
    return (await services.keys.mint(user.id, 'cluster')).token;
  } finally {
    await handle.db.destroy();
  }
}

const LIMIT = 6;

for (const store of ['memory', ...(process.env.TEST_REDIS_URL ? ['redis'] : [])] as const) {
  describe(`WORKERS=2 with counters in ${store === 'memory' ? 'the primary process' : 'Redis'}`, () => {
    let dir: string;
    let url: string;
    let cluster: Cluster;
    let redis: TestRedis | undefined;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'inbox-cluster-'));
      url = `sqlite:${join(dir, 'inbox.db')}`;
      redis = store === 'redis' ? testRedis() : undefined;
      cluster = await startCluster({
        DATABASE_URL: url,
        SECRET_KEY: 'a'.repeat(64),
        RATE_LIMIT_FREE_PER_MINUTE: String(LIMIT),
        ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix } : {}),
      });
    }, 40_000);

    afterAll(async () => {
      if (cluster) await stopCluster(cluster);
      if (redis) await removeRedisKeys(redis);
      rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    it('migrates a fresh database once, in the primary, and serves from both workers', async () => {
      expect(new Set(cluster.listening()).size).toBe(2);
      expect(cluster.listening()).not.toContain(cluster.primary.pid);
      const token = await seedUser(url, 'both@example.test');
      for (let i = 0; i < 6; i += 1) expect((await send(cluster.baseUrl, '/api/v1/me', { token })).status).toBe(200);
      await waitFor(() => cluster.servedBy('/api/v1/me').size === 2, { timeoutMs: 5_000, what: 'requests served by both workers' });
    });

    it('counts one rate limit per user across the workers, not one per worker', async () => {
      const token = await seedUser(url, 'limited@example.test');
      await awayFromMinuteEnd(10);
      const answers: Answer[] = [];
      for (let i = 0; i < LIMIT + 4; i += 1) answers.push(await send(cluster.baseUrl, '/api/v1/projects', { token }));
      expect(answers.map((a) => a.status)).toEqual([...Array<number>(LIMIT).fill(200), 429, 429, 429, 429]);
      expect(answers.slice(0, LIMIT).map((a) => Number(a.headers['x-ratelimit-remaining']))).toEqual([5, 4, 3, 2, 1, 0]);
      expect(cluster.servedBy('/api/v1/projects').size).toBe(2);
    });

    it('answers GET /metrics with the counters of every worker', async () => {
      const metrics = await send(cluster.baseUrl, '/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(/^capture_inbox_rate_limit_store_errors_total 0$/m);
    });

    it('takes concurrent writes from both workers on one SQLite file without an error', async () => {
      const token = await seedUser(url, 'writer@example.test');
      // The free limit is small; this user is Pro so that only the database is under test.
      const handle = openDatabase(url);
      await handle.db.updateTable('users').set({ plan: 'pro' }).where('email', '=', 'writer@example.test').execute();
      await handle.db.destroy();
      const statuses: number[] = [];
      // 4 rounds of 20 concurrent captures, each on its own connection: both workers write at once.
      for (let round = 0; round < 4; round += 1) {
        const batch = await Promise.all(
          Array.from({ length: 20 }, (_, i) => send(cluster.baseUrl, '/api/v1/capture', { token, method: 'POST', body: { text: `write ${round}-${i}` } })),
        );
        statuses.push(...batch.map((a) => a.status));
      }
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      const listed = await send(cluster.baseUrl, '/api/v1/items?limit=200', { token });
      expect((JSON.parse(listed.body) as { items: unknown[] }).items).toHaveLength(80);
      expect(cluster.servedBy('/api/v1/capture').size).toBe(2);
    });

    it('replaces a worker that dies, and keeps serving', async () => {
      const [victim] = cluster.listening();
      process.kill(victim!, 'SIGKILL');
      await waitFor(() => cluster.listening().length >= 3, { timeoutMs: 20_000, what: 'a replacement worker' });
      expect(cluster.output()).toMatch(/worker exited; starting another/);
      for (let i = 0; i < 4; i += 1) expect((await send(cluster.baseUrl, '/healthz')).status).toBe(200);
    });

    it('stops every worker on SIGTERM and exits 0', async () => {
      const workers = cluster.listening().filter(isAlive);
      expect(workers.length).toBe(2);
      expect(await stopCluster(cluster)).toBe(0);
      expect(workers.filter(isAlive)).toEqual([]);
    });
  });
}
