import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/container.js';
import type { DbHandle } from '../../src/db/create-db.js';
import { openDatabase } from '../../src/open-database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { newState } from '../helpers/web-client.js';
import { defaultServices } from '../helpers/test-app.js';

/*
 * Within one process SQLite has one connection, so transactions cannot overlap there; the real
 * race on SQLite is between two processes sharing the database file, as the workers of a cluster do
 * (one server per file, decisions/0067). (PostgreSQL races within one process too: see pairing.test.ts.)
 */
describe('POST /api/v1/connect/exchange across two server processes on one SQLite file', () => {
  let dir: string;
  let handle: DbHandle;
  let services: Services;
  let servers: ServerProcess[] = [];
  let userId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-race-'));
    const url = `sqlite:${join(dir, 'inbox.db')}`;
    handle = openDatabase(url);
    await migrateToLatest(handle.db);
    services = defaultServices(handle);
    userId = (await services.users.create({ email: 'race@example.test' })).id;
    // One server per SQLite file (decisions/0067): the two processes are the workers of one cluster,
    // each with its own writer connection, taking the exchanges' connections in turn.
    const cluster = await startServerProcess({ DATABASE_URL: url, WORKERS: '2' }, 30_000, {
      ready: (output) => (output.match(/Server listening/g) ?? []).length >= 2,
    });
    servers = [cluster, cluster];
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...new Set(servers)].map((s) => s.stop()));
    await handle?.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (server: ServerProcess, path: string, body: unknown) => {
    const res = await fetch(`${server.baseUrl}/api/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  it('hands out exactly one token however the exchanges interleave', async () => {
    for (let round = 0; round < 10; round += 1) {
      const state = newState();
      const label = `race ${round}`;
      expect((await post(servers[0]!, 'connect/start', { state, label })).status).toBe(200);
      expect((await services.pairing.decide(state, userId, true)).decided).toBe(true);
      const answers = await Promise.all([0, 1, 0, 1].map((i) => post(servers[i]!, 'connect/exchange', { state })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, JSON.stringify(answers)).toEqual([200, 409, 409, 409]);
      const keys = (await services.keys.list(userId)).filter((k) => k.label === label);
      expect(keys.map((k) => k.id)).toEqual([answers.find((a) => a.status === 200)!.body.key_id]);
    }
  }, 60_000);
});
