import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/open-database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { defaultServices } from '../helpers/test-app.js';
import { csrfOf } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery';

/** The real process (dist/server.js, built by `npm test`), on loopback with an ephemeral port. */
describe('server process', () => {
  let dir: string;
  let token: string;
  let server: ServerProcess;
  let baseUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-server-'));
    const url = `sqlite:${join(dir, 'inbox.db')}`;
    const handle = openDatabase(url);
    await migrateToLatest(handle.db);
    const services = defaultServices(handle);
    const user = await services.users.create({ email: 'proc@example.test' });
    token = (await services.keys.mint(user.id, 'lifecycle')).token;
    await services.accounts.setPassword('proc@example.test', PASSWORD);
    await handle.db.destroy();

    server = await startServerProcess({ DATABASE_URL: url, LOG_LEVEL: 'debug' }, 15_000);
    baseUrl = server.baseUrl;
  });

  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${baseUrl}/readyz`)).json()).toEqual({ status: 'ok' });
  });

  it('reads quick add from the bundle (the grammar and rrule load as a lazy chunk)', async () => {
    const res = await fetch(`${baseUrl}/api/v1/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Standup every weekday 9am @team' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: 'Standup', tags: ['team'], recurrence: { rule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from: 'due' } });
  });

  it('signs in on the web and shows a note as Markdown (argon2 and markdown-it load at their first use, outside the bundle)', async () => {
    const captured = await fetch(`${baseUrl}/api/v1/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Lifecycle note\nsome **bold** words', type: 'note' }),
    });
    const { id } = (await captured.json()) as { id: string };
    const jar = new Map<string, string>();
    const send = async (method: 'GET' | 'POST', path: string, form?: Record<string, string>) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          accept: 'text/html',
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      for (const cookie of res.headers.getSetCookie()) {
        const pair = cookie.split(';')[0]!;
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return { status: res.status, body: await res.text(), location: res.headers.get('location') };
    };
    const login = await send('GET', '/login');
    expect((await send('POST', '/login', { _csrf: csrfOf(login.body), email: 'proc@example.test', password: PASSWORD })).status).toBe(303);
    const page = await send('GET', `/inbox/items/${id}`);
    expect({ status: page.status, location: page.location }).toEqual({ status: 200, location: null });
    expect(page.body).toContain('<strong>bold</strong>');
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const body = JSON.stringify({ text: 'captured during shutdown' });
    const half = Math.floor(body.length / 2);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${baseUrl}/api/v1/capture`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      const earlier = server.output().length;
      req.write(body.slice(0, half));
      // Once the server has logged the request's arrival (at debug level) it is in flight; SIGTERM, then the rest of the body.
      void waitFor(() => server.output().slice(earlier).includes('/api/v1/capture'), { what: 'the request to arrive' })
        .then(() => {
          server.child.kill('SIGTERM');
          return waitFor(() => server.output().includes('shutting down'), { what: 'the server to start shutting down' });
        })
        .then(() => req.end(body.slice(half)), reject);
    });
    const answer = await response;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).title).toBe('captured during shutdown');
    expect(await server.exited).toBe(0);
  });
});
