import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SqliteDriver from '../../src/db/sqlite/sqlite-driver.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/create-db.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli/admin.js');
const PASSWORD = 'a new password, typed once';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The admin CLI as an operator runs it, optionally with something piped into stdin. */
function admin(databaseUrl: string, args: string[], stdin = ''): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

const jsonLines = (run: Run): Array<Record<string, unknown>> => {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};

/** A database of its own: a temporary SQLite file, or a new PostgreSQL database. */
async function freshDatabase(dialect: DialectName): Promise<{ url: string; dir: string; drop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-ops-'));
  if (dialect === 'sqlite') return { url: `sqlite:${join(dir, 'live.db')}`, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  const base = process.env.TEST_DATABASE_URL!;
  const name = `ops_${randomBytes(6).toString('hex')}`;
  const query = async (text: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dir,
    async drop() {
      await query(`drop database if exists ${name} with (force)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the web form of the running server; answers the status and whether a session cookie came. */
async function signIn(baseUrl: string, email: string, password: string): Promise<{ status: number; session: boolean }> {
  const form = await fetch(`${baseUrl}/login`);
  const cookie = (form.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
  });
  await res.arrayBuffer();
  return { status: res.status, session: res.headers.getSetCookie().some((c) => /session=[^;]+/.test(c) && !/Max-Age=0/i.test(c)) };
}

describe.each(DIALECTS)('the admin CLI next to a running server (%s)', (dialect) => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let server: ServerProcess;
  let ownerEmail: string;
  let ownerKey: string;

  beforeAll(async () => {
    db = await freshDatabase(dialect);
    server = await startServerProcess({ DATABASE_URL: db.url, SECRET_KEY: '07'.repeat(32) }, 20_000, { cwd: db.dir });
    ownerEmail = `owner-${randomBytes(3).toString('hex')}@example.test`;
    const [created] = jsonLines(await admin(db.url, ['user', 'create', '--email', ownerEmail, '--password-stdin'], 'first password\n'));
    expect(created).toMatchObject({ email: ownerEmail });
    ownerKey = String(jsonLines(await admin(db.url, ['key', 'create', '--email', ownerEmail]))[0]!.token);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('user set-password takes the password from stdin (never argv); the user then signs in on the running server', async () => {
    expect((await signIn(server.baseUrl, ownerEmail, PASSWORD)).status).toBe(401);
    const refused = await admin(db.url, ['user', 'set-password', '--email', ownerEmail, '--password', PASSWORD]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/stdin/);
    expect((await admin(db.url, ['user', 'set-password', '--email', ownerEmail])).stderr).toMatch(/no password on stdin/);
    const [done] = jsonLines(await admin(db.url, ['user', 'set-password', '--email', ownerEmail], `${PASSWORD}\n`));
    expect(done).toMatchObject({ email: ownerEmail, password_set: true });
    expect(await signIn(server.baseUrl, ownerEmail, PASSWORD)).toEqual({ status: 303, session: true });
    expect((await signIn(server.baseUrl, ownerEmail, 'not the password')).status).toBe(401);
  });

  it('user list prints one JSON line per user, the first one the owner', async () => {
    const second = `second-${randomBytes(3).toString('hex')}@example.test`;
    jsonLines(await admin(db.url, ['user', 'create', '--email', second, '--plan', 'pro', '--password', 'second password']));
    const lines = jsonLines(await admin(db.url, ['user', 'list']));
    expect(lines.map((l) => [l.email, l.plan, l.owner])).toEqual([
      [ownerEmail, 'pro', true],
      [second, 'pro', false],
    ]);
  });

  it("export prints the user's export on stdout, JSON or Markdown", async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Exported by the CLI' }),
    });
    expect(res.status).toBe(201);
    const json = await admin(db.url, ['export', '--email', ownerEmail]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'capture-inbox-export', items: [{ title: 'Exported by the CLI' }] });
    const md = await admin(db.url, ['export', '--email', ownerEmail, '--format', 'markdown']);
    expect(md.stdout).toContain('# Inbox\n\n- [ ] Exported by the CLI\n');
    expect((await admin(db.url, ['export', '--email', ownerEmail, '--format', 'pdf'])).stderr).toMatch(/--format must be json or markdown/);
  });

  it('never writes keys or passwords into its log', () => {
    expect(server.output()).toContain('"msg":"Server listening');
    expect(server.output()).not.toContain(ownerKey);
    expect(server.output()).not.toContain(ownerKey.split('_')[2]!);
    expect(server.output()).not.toContain(PASSWORD);
  });

  it(
    dialect === 'sqlite' ? 'backup copies the live database while the server writes, and the copy opens with the data' : 'backup points to pg_dump',
    async () => {
      const target = join(db.dir, 'backup.db');
      if (dialect === 'postgres') {
        const run = await admin(db.url, ['backup', '--to', target]);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(/pg_dump/);
        return;
      }
      let writes = 0;
      let writing = true;
      const writer = (async () => {
        for (let i = 0; i < 2000 && writing; i += 1) {
          const res = await fetch(`${server.baseUrl}/api/v1/capture`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ text: `written during the backup ${i}` }),
          });
          if (res.status === 201) writes += 1;
          await res.arrayBuffer();
        }
      })();
      await waitFor(() => writes >= 20, { timeoutMs: 20_000, intervalMs: 10, what: '20 captures before the backup' });
      const [result] = jsonLines(await admin(db.url, ['backup', '--to', target]));
      const writtenBefore = writes;
      writing = false;
      await writer;
      expect(result).toMatchObject({ to: target });
      const copy = new SqliteDriver(target, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const count = (copy.prepare("select count(*) as n from items where title like 'written during the backup%'").get() as { n: number }).n;
        expect(count).toBeGreaterThanOrEqual(20);
        expect(count).toBeLessThanOrEqual(writes);
        expect(writtenBefore).toBeGreaterThanOrEqual(20);
        const found = copy.prepare("select count(*) as n from items_fts where items_fts match 'backup'").get() as { n: number };
        expect(found.n).toBe(count);
      } finally {
        copy.close();
      }
      const again = await admin(db.url, ['backup', '--to', target]);
      expect(again.stderr).toMatch(/exists already/);
    },
  );
});

describe('.env, metrics across workers and CORS on the real process', () => {
  let dir: string;
  let server: ServerProcess;
  const FILE_TOKEN = 'token-from-the-dotenv-file-0123';
  const ENV_TOKEN = 'token-from-the-environment-4567';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-dotenv-'));
    writeFileSync(
      join(dir, '.env'),
      [
        '# read at start; the environment wins',
        'DATABASE_URL=sqlite:./from-dotenv.db',
        `METRICS_TOKEN=${FILE_TOKEN}`,
        'CORS_ORIGINS=https://app.example.com',
        'WORKERS=2',
        `SECRET_KEY=${'07'.repeat(32)}`,
      ].join('\n'),
    );
    // Both workers listening: GET /metrics asks every worker, and one still starting fails it.
    server = await startServerProcess({ METRICS_TOKEN: ENV_TOKEN }, 30_000, {
      cwd: dir,
      withoutEnv: ['DATABASE_URL', 'CORS_ORIGINS', 'WORKERS', 'SECRET_KEY'],
      ready: (output) => (output.match(/Server listening at/g) ?? []).length >= 2,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads .env from the working directory, the environment winning', async () => {
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${FILE_TOKEN}` } })).status).toBe(401);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${ENV_TOKEN}` } })).status).toBe(200);
    expect(existsSync(join(dir, 'from-dotenv.db'))).toBe(true);
  });

  it('sums the request histogram of both workers and shows process metrics', async () => {
    for (let i = 0; i < 8; i += 1) expect((await fetch(`${server.baseUrl}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    const text = await (await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${ENV_TOKEN}` } })).text();
    expect(text).toContain('capture_inbox_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"} 8');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('answers a CORS preflight for the listed origin and not for another', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.baseUrl}/api/v1/items`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const allowed = await preflight('https://app.example.com');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    const refused = await preflight('https://other.example.net');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
