import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Services } from '../../src/container.js';
import type { DbHandle, DialectName } from '../../src/db/create-db.js';
import { openDatabase } from '../../src/open-database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { ADMIN_COMMAND_NAMES } from '../../src/cli/admin-commands.js';
import { DIALECTS } from '../helpers/dialects.js';
import { client, defaultServices } from '../helpers/test-app.js';

// A test here starts up to eight CLI processes one after another, each loading the whole service
// (about a second of CPU alone). In CI three lanes share two cores, and the eight-process test ran
// past 30 s on a loaded machine; the timeout guards against a hang, not for speed.
vi.setConfig({ testTimeout: 90_000 });

const CLI = resolve(import.meta.dirname, '../../dist/cli/admin.js');
const TOKEN = /^cin_[a-z0-9]{8}_[A-Za-z0-9]{32,}$/;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface CliDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own for the CLI: a temporary SQLite file, or a new PostgreSQL database. */
async function freshDatabase(dialect: DialectName): Promise<CliDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-cli-'));
    return { url: `sqlite:${join(dir, 'cli.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `cli_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

function runCli(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env }, timeout: 25_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** The CLI with text piped into its stdin (set-password, create --password-stdin). */
function runCliWithStdin(databaseUrl: string, args: string[], stdin: string): Promise<CliResult> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, timeout: 25_000 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

/** The single JSON line a successful command prints. */
function jsonLine(result: CliResult): Record<string, unknown> {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** `user create` without a password: its JSON line, and one line on stderr saying the user cannot sign in on the web. */
function userCreated(result: CliResult): Record<string, unknown> {
  expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/has no password and cannot sign in on the web .*user set-password/)]);
  return jsonLine({ ...result, stderr: '' });
}

function expectFailure(result: CliResult, message: RegExp): void {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toMatch(message);
}

describe.each(DIALECTS)('admin CLI (%s)', (dialect) => {
  let database: CliDatabase;
  let handle: DbHandle | undefined;
  let services: Services;
  let app: FastifyInstance;
  let counter = 0;

  const cli = (...args: string[]) => runCli(database.url, args);
  const email = () => `cli${(counter += 1)}-${randomBytes(3).toString('hex')}@example.test`;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
  });
  afterAll(async () => {
    await app?.close();
    await handle?.db.destroy();
    await database?.drop();
  });

  /** An app on the database the CLI writes to, built once the CLI has migrated it. */
  async function sameDatabaseApp(): Promise<{ app: FastifyInstance; services: Services }> {
    if (!handle) {
      handle = openDatabase(database.url);
      services = defaultServices(handle);
      app = await buildApp({ config: { publicUrl: 'http://localhost:8080' }, services });
      await app.ready();
    }
    return { app, services };
  }

  describe('admin migrate', () => {
    it('prints {"applied":[...]} with the migrations it applied, then none', async () => {
      const first = jsonLine(await cli('migrate'));
      expect(first).toEqual({ applied: Object.keys(migrations) });
      expect(jsonLine(await cli('migrate'))).toEqual({ applied: [] });
    });
  });

  describe('admin user create', () => {
    it('prints one JSON line {id, email, plan}; the first user, the owner, is Pro and gets an Inbox', async () => {
      const address = email();
      const created = userCreated(await cli('user', 'create', '--email', address));
      expect(Object.keys(created).sort()).toEqual(['email', 'id', 'plan']);
      expect(created).toMatchObject({ email: address, plan: 'pro' });
      const { services: s } = await sameDatabaseApp();
      const inbox = await s.projects.requireInbox(s.db, String(created.id));
      expect(inbox).toMatchObject({ name: 'Inbox' });
      expect(Boolean(inbox.is_default)).toBe(true);
    });

    it('gives later users DEFAULT_PLAN when no --plan is given', async () => {
      expect(userCreated(await cli('user', 'create', '--email', email())).plan).toBe('free');
      expect(userCreated(await runCli(database.url, ['user', 'create', '--email', email()], { DEFAULT_PLAN: 'pro' })).plan).toBe('pro');
      expect(jsonLine(await cli('user', 'create', '--email', email(), '--plan', 'free', '--password', 'correct horse')).plan).toBe('free');
    });

    it('reads the password from stdin with --password-stdin, and the user can sign in with it', async () => {
      const address = email();
      const created = jsonLine(await runCliWithStdin(database.url, ['user', 'create', '--email', address, '--password-stdin'], 'battery staple\n'));
      expect(created.email).toBe(address);
      const { services: s } = await sameDatabaseApp();
      const session = await s.accounts.signIn({ email: address, password: 'battery staple', ip: '127.0.0.1' });
      expect(session.user.id).toBe(created.id);
    });

    it('refuses a password shorter than the web allows, an empty stdin, and both password flags, creating nobody', async () => {
      const address = email();
      expectFailure(await runCliWithStdin(database.url, ['user', 'create', '--email', address, '--password-stdin'], 'short\n'), /password must be 8 to 256/);
      expectFailure(await runCliWithStdin(database.url, ['user', 'create', '--email', address, '--password-stdin'], ''), /no password on stdin/);
      expectFailure(
        await runCliWithStdin(database.url, ['user', 'create', '--email', address, '--password-stdin', '--password', 'correct horse'], 'x\n'),
        /not both/,
      );
      expectFailure(await cli('user', 'set-plan', '--email', address, '--plan', 'pro'), /not found/);
    });

    it('creates a Pro user with --plan pro', async () => {
      const created = jsonLine(await cli('user', 'create', '--email', email(), '--plan', 'pro', '--password', 'correct horse'));
      expect(created.plan).toBe('pro');
    });

    it('exits non-zero with one line on stderr for a duplicate email, in any case', async () => {
      const address = email();
      userCreated(await cli('user', 'create', '--email', address));
      for (const again of [address, address.toUpperCase()]) {
        const result = await cli('user', 'create', '--email', again);
        expectFailure(result, /already exists/);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      }
    });

    it('exits non-zero with a message on stderr when --email is missing', async () => {
      const result = await cli('user', 'create');
      expectFailure(result, /--email/);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  });

  describe('admin user set-plan', () => {
    it('prints the user with the new plan as one JSON line', async () => {
      const address = email();
      const created = userCreated(await cli('user', 'create', '--email', address));
      const updated = jsonLine(await cli('user', 'set-plan', '--email', address, '--plan', 'pro'));
      expect(updated).toEqual({ id: created.id, email: address, plan: 'pro' });
      const { services: s } = await sameDatabaseApp();
      expect((await s.users.me(String(created.id))).is_pro).toBe(true);
    });

    it('exits non-zero for an unknown user or plan', async () => {
      expectFailure(await cli('user', 'set-plan', '--email', email(), '--plan', 'pro'), /not found/);
      const address = email();
      userCreated(await cli('user', 'create', '--email', address));
      expectFailure(await cli('user', 'set-plan', '--email', address, '--plan', 'gold'), /--plan/);
    });
  });

  describe('admin key create and key revoke', () => {
    it('prints {key_id, token}; the token authenticates against the API until it is revoked', async () => {
      const address = email();
      const created = userCreated(await cli('user', 'create', '--email', address));
      const minted = jsonLine(await cli('key', 'create', '--email', address, '--label', 'laptop'));
      expect(Object.keys(minted).sort()).toEqual(['expires_at', 'key_id', 'scopes', 'token']);
      expect(minted).toMatchObject({ scopes: ['read', 'capture', 'write', 'webhooks'], expires_at: null });
      expect(String(minted.token)).toMatch(TOKEN);

      const { app: server, services: s } = await sameDatabaseApp();
      const api = client(server, String(minted.token));
      const me = await api.get('me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: created.id, email: address });
      expect((await api.get('projects')).body.projects.map((p: { name: string }) => p.name)).toEqual(['Inbox']);
      const keys = await s.keys.list(String(created.id));
      expect(keys.map((k) => [k.id, k.label])).toEqual([[minted.key_id, 'laptop']]);

      const revoked = await cli('key', 'revoke', '--key-id', String(minted.key_id));
      expect(revoked.code).toBe(0);
      expect(revoked.stderr).toBe('');
      const after = await api.get('me');
      expect(after.status).toBe(401);
      expect(after.body.error).toBe('unauthorized');
      expect(await s.keys.authenticate(String(minted.token))).toBeNull();
    });

    it('key create --scopes and --expires-in-days mint a narrowed key that expires', async () => {
      const address = email();
      userCreated(await cli('user', 'create', '--email', address));
      const minted = jsonLine(await cli('key', 'create', '--email', address, '--scopes', 'capture, read', '--expires-in-days', '30'));
      expect(minted.scopes).toEqual(['read', 'capture']);
      const days = (Date.parse(String(minted.expires_at)) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      const { app: server } = await sameDatabaseApp();
      const api = client(server, String(minted.token));
      expect((await api.get('me')).body.key).toEqual({ id: minted.key_id, scopes: ['read', 'capture'] });
      expect((await api.get('webhooks')).status).toBe(403);
    });

    it('key create refuses unknown scopes, an empty list and an odd expiry', async () => {
      const address = email();
      userCreated(await cli('user', 'create', '--email', address));
      expectFailure(await cli('key', 'create', '--email', address, '--scopes', 'read,admin'), /--scopes: unknown scope admin/);
      expectFailure(await cli('key', 'create', '--email', address, '--scopes', ','), /--scopes: name at least one scope/);
      for (const days of ['0', '-3', '1.5', 'week', '36500']) {
        expectFailure(await cli('key', 'create', '--email', address, '--expires-in-days', days), /--expires-in-days|expiry/);
      }
    });

    it('exits non-zero for a key of an unknown user or an unknown key id', async () => {
      expectFailure(await cli('key', 'create', '--email', email()), /not found/);
      expectFailure(await cli('key', 'revoke', '--key-id', '0190a000-0000-7000-8000-000000000000'), /not found/);
      expectFailure(await cli('key', 'revoke'), /--key-id/);
    });
  });

  describe('admin push keys', () => {
    it('prints the VAPID public key, made once and kept: the same again, and the same GET /push/key answers', async () => {
      const secret = { SECRET_KEY: randomBytes(32).toString('hex') };
      const first = jsonLine(await runCli(database.url, ['push', 'keys'], secret));
      expect(first.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
      expect(jsonLine(await runCli(database.url, ['push', 'keys'], secret))).toEqual(first);
      const { app } = await sameDatabaseApp();
      const res = await app.inject({ method: 'GET', url: '/api/v1/push/key' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(first);
    });
  });

  describe('settings', () => {
    it('finishes its command and exits when REDIS_URL names a Redis that does not answer', async () => {
      // Port 1 on loopback: nothing listens. The CLI builds its services from the server's settings,
      // so it opens the configured counter store; it must close it again, or the client's
      // reconnecting would keep the process alive until the timeout.
      const created = userCreated(await runCli(database.url, ['user', 'create', '--email', email()], { REDIS_URL: 'redis://127.0.0.1:1' }));
      expect(created.plan).toBe('free');
    });
  });

  describe('usage errors', () => {
    it('exits non-zero with a message on stderr for an unknown command', async () => {
      for (const args of [['frobnicate'], ['user', 'delete', '--email', 'x@example.test'], []]) {
        expectFailure(await cli(...args), /command/);
      }
    });

    it('answers a bad flag before it opens the database: a database that cannot be opened is never reached', async () => {
      // Under a directory that does not exist, so opening it would fail with a database error instead.
      const nowhere = `sqlite:${join(tmpdir(), `no-such-dir-${randomBytes(6).toString('hex')}`, 'cli.db')}`;
      const cases: Array<[string[], RegExp]> = [
        [['key', 'create', '--email', 'a@example.test', '--scopes', 'read,admin'], /--scopes: unknown scope admin/],
        [['key', 'create', '--email', 'a@example.test', '--expires-in-days', 'week'], /--expires-in-days/],
        [['key', 'create'], /--email is required/],
        [['user', 'create', '--email', 'a@example.test', '--plan', 'gold'], /--plan must be free or pro/],
        [['user', 'create', '--email', 'a@example.test', '--password', 'x', '--password-stdin'], /not both/],
        [['user', 'set-plan', '--email', 'a@example.test'], /--plan is required/],
        [['user', 'set-password', '--email', 'a@example.test', '--password', 'x'], /reads the password from stdin/],
        [['key', 'revoke'], /--key-id is required/],
        [['export', '--email', 'a@example.test', '--format', 'pdf'], /--format must be json or markdown/],
        [['backup'], /--to is required/],
      ];
      for (const [args, message] of cases) expectFailure(await runCli(nowhere, args), message);
    });

    it('prints the usage, naming every command, for help, --help and -h, and exits 0', async () => {
      for (const args of [['help'], ['--help'], ['-h'], ['user', 'create', '--help']]) {
        const result = await cli(...args);
        expect(result.code, args.join(' ')).toBe(0);
        expect(result.stderr).toBe('');
        expect(result.stdout).toMatch(/^usage: admin user create/);
        for (const name of ADMIN_COMMAND_NAMES) expect(result.stdout).toContain(`admin ${name === 'help' ? '--help' : name}`);
      }
    });
  });
});
