import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/container.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** The real process (dist/server.js, built by `npm test`), on loopback with an ephemeral port. */
describe('server process', () => {
  let dir: string;
  let token: string;
  let server: ChildProcess;
  let baseUrl: string;
  let output = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-server-'));
    const url = `sqlite:${join(dir, 'inbox.db')}`;
    const handle = createDb(url);
    await migrateToLatest(handle.db);
    const services = createServices(handle);
    const user = await services.users.create({ email: 'proc@example.test' });
    token = (await services.keys.mint(user.id, 'lifecycle')).token;
    await handle.db.destroy();

    server = spawn(process.execPath, ['dist/server.js'], {
      env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    server.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    baseUrl = await waitFor(() => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 15_000);
  });

  afterAll(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${baseUrl}/readyz`)).json()).toEqual({ status: 'ok' });
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const body = JSON.stringify({ text: 'captured during shutdown' });
    const half = Math.floor(body.length / 2);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${baseUrl}/api/v1/capture`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, half));
      // Once the server has logged the request's arrival (at debug level) it is in flight; SIGTERM, then the rest of the body.
      void waitFor(() => (output.includes('/api/v1/capture') ? true : undefined), 10_000)
        .then(() => {
          server.kill('SIGTERM');
          return waitFor(() => (output.includes('shutting down') ? true : undefined), 10_000);
        })
        .then(() => req.end(body.slice(half)), reject);
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));

    const answer = await response;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).title).toBe('captured during shutdown');
    expect(await exited).toBe(0);
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the server');
    await new Promise((r) => setTimeout(r, 25));
  }
}
