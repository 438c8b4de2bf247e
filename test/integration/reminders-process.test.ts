import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { createTestCertificates } from '../helpers/test-ca.js';
import { defaultServices, type JsonBody } from '../helpers/test-app.js';
import { createTestDb, type TestDb } from '../helpers/test-db.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Real server processes (dist/server.js) on one database, each running its reminder scheduler and
 * delivery worker: a batch of reminders reaches an ntfy-shaped receiver exactly once each, within
 * 5 s of its time, and a process killed with SIGKILL mid-delivery is taken over with the same
 * delivery id.
 */
describe.each(DIALECTS)('server processes: reminders fire once (%s)', (dialect) => {
  let receiver: HttpsReceiver;
  let db: TestDb;
  let dir: string;
  let token: string;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const arrivedAt = new Map<number, number>();
  let hangNext = false;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-reminders-proc-'));
    const certs = await createTestCertificates();
    writeFileSync(join(dir, 'ca.pem'), certs.caPem);
    receiver = await new HttpsReceiver(certs, (r: ReceivedRequest) => {
      arrivedAt.set(r.index, Date.now());
      if (r.path === '/hang' && hangNext) {
        hangNext = false;
        return 'hang';
      }
      return { status: 200 };
    }).start();
    db = await createTestDb(dialect);
    const services = defaultServices(db.handle);
    const user = await services.users.create({ email: `reminders-${dialect}@example.test`, plan: 'pro' });
    token = (await services.keys.mint(user.id, 'process test')).token;
    const separator = db.url.includes('?') ? '&' : '?';
    env = {
      DATABASE_URL: db.searchPath ? `${db.url}${separator}options=${encodeURIComponent(`-c search_path=${db.searchPath}`)}` : db.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_DELAYS_MS: '100,200',
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      SECRET_KEY: Buffer.alloc(32, 9).toString('hex'),
    };
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await receiver?.close();
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Two processes racing for the same reminders: two servers on PostgreSQL; on SQLite, which has one
   * server per file (decisions/0067), the two workers of one WORKERS=2 cluster.
   */
  async function startTwo(): Promise<[ServerProcess, ServerProcess]> {
    if (dialect === 'postgres') return Promise.all([startServer(), startServer()]);
    const cluster = await startServerProcess({ ...env, WORKERS: '2' }, 30_000, {
      cwd: dir,
      ready: (output) => (output.match(/Server listening/g) ?? []).length >= 2,
    });
    servers.push(cluster);
    return [cluster, cluster];
  }

  async function startServer(): Promise<ServerProcess> {
    const server = await startServerProcess(env, 20_000, { cwd: dir });
    servers.push(server);
    return server;
  }

  const api = async (baseUrl: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as JsonBody };
  };

  it('two processes fire a batch of 30 reminders exactly once each, within 5 s of their time', async () => {
    const [a, b] = await startTwo();
    expect((await api(a.baseUrl, 'POST', 'channels', { kind: 'ntfy', url: receiver.url('/batch') })).status).toBe(201);
    const start = Date.now() + 3000;
    const items = new Map<string, number>();
    for (let i = 0; i < 30; i += 1) {
      const remindAt = start + (i % 10) * 100;
      const target = i % 2 === 0 ? a : b;
      const res = await api(target.baseUrl, 'POST', 'capture', { text: `batch ${i}`, remind_at: new Date(remindAt).toISOString() });
      expect(res.status).toBe(201);
      items.set(res.body.id as string, remindAt);
    }
    await receiver.waitFor(30, '/batch', 30_000);
    // Every delivery recorded as succeeded: nothing is still on its way that could arrive twice.
    await waitFor(
      async () => {
        const log = await api(b.baseUrl, 'GET', 'reminders/log?limit=200');
        return log.body.deliveries.length === 30 && log.body.deliveries.every((d: { status: string }) => d.status === 'succeeded');
      },
      { timeoutMs: 20_000, what: 'the reminders log to show 30 succeeded deliveries' },
    );
    const got = receiver.to('/batch');
    expect(got).toHaveLength(30);
    const ids = got.map((r) => String(r.headers.click).split('/items/')[1]!);
    expect(new Set(ids)).toEqual(new Set(items.keys()));
    expect(new Set(got.map((r) => r.headers['x-service-delivery'])).size).toBe(30);
    const lateness = got.map((r, i) => arrivedAt.get(r.index)! - items.get(ids[i]!)!);
    expect(Math.max(...lateness)).toBeLessThan(5000);
    expect(Math.min(...lateness)).toBeGreaterThanOrEqual(0);
    // The feed serves only events of transactions older than every one still running in the
    // database (the sync contract), and other test files' transactions run beside this one.
    const reminders = await waitFor(
      async () => {
        const changes = await api(a.baseUrl, 'GET', 'changes?limit=500');
        const found = (changes.body.changes as { event: string }[]).filter((c) => c.event === 'item.reminder');
        return found.length >= 30 && found;
      },
      { timeoutMs: 20_000, what: 'the change feed to show the 30 reminders' },
    );
    expect(reminders).toHaveLength(30);
    await Promise.all([...new Set([a, b])].map((server) => server.stop()));
  }, 120_000);

  it('SIGKILL during a delivery: the next process redelivers it with the same id', async () => {
    const first = await startServer();
    expect((await api(first.baseUrl, 'POST', 'channels', { kind: 'ntfy', url: receiver.url('/hang') })).status).toBe(201);
    hangNext = true;
    const res = await api(first.baseUrl, 'POST', 'capture', { text: 'survives a crash', remind_at: new Date(Date.now() + 1000).toISOString() });
    expect(res.status).toBe(201);
    await receiver.waitFor(1, '/hang', 15_000);
    const killed = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await killed;
    const second = await startServer();
    await receiver.waitFor(2, '/hang', 30_000);
    const [lost, delivered] = receiver.to('/hang');
    expect(delivered!.headers['x-service-delivery']).toBe(lost!.headers['x-service-delivery']);
    expect(delivered!.headers.click).toContain(res.body.id as string);
    await waitFor(
      async () => {
        const log = await api(second.baseUrl, 'GET', 'reminders/log');
        return log.body.deliveries.find((d: { item_id: string; status: string }) => d.item_id === res.body.id && d.status === 'succeeded');
      },
      { timeoutMs: 15_000, what: 'the redelivered reminder to be logged as succeeded' },
    );
    const changes = await api(second.baseUrl, 'GET', 'changes?limit=500');
    expect(changes.body.changes.filter((c: JsonBody) => c.event === 'item.reminder' && c.data.item.id === res.body.id)).toHaveLength(1);
    await second.stop();
  }, 120_000);
});
