import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/create-db.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { rawMail } from '../helpers/mail.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { DOVECOT, lacking } from '../helpers/system-programs.js';
import { waitFor } from '../helpers/wait.js';

/** The real server process (dist/server.js) reads EMAIL_IN_IMAP_URL after it listens, and stops cleanly. */

const ADMIN = resolve(import.meta.dirname, '../../dist/cli/admin.js');
const run = promisify(execFile);

async function freshDatabase(dialect: DialectName): Promise<{ url: string; dir: string; drop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-email-in-'));
  if (dialect === 'sqlite') return { url: `sqlite:${join(dir, 'live.db')}`, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  const name = `email_in_${randomBytes(6).toString('hex')}`;
  const query = async (text: string) => {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await query(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
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

describe.skipIf(lacking(DOVECOT))('email to inbox in the server process', () => {
  describe.each(DIALECTS)('(%s)', (dialect) => {
    let dovecot: Dovecot;
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      dovecot = await startDovecot();
      db = await freshDatabase(dialect);
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
      await dovecot?.destroy();
      await db?.drop();
    });

    it('reads the mailbox into items with the settings of operations.md', async () => {
      server = await startServerProcess(
        { DATABASE_URL: db.url, SECRET_KEY: '07'.repeat(32), EMAIL_IN_IMAP_URL: dovecot.imapUrl, EMAIL_IN_ADDRESS: 'inbox+{token}@mail.example.test' },
        20_000,
        { cwd: db.dir },
      );
      const started = server;
      await waitFor(() => started.output().includes('email-in: reading the mailbox'), { what: () => started.output() });
      // The log names the mailbox without its password.
      expect(started.output()).not.toContain(dovecot.imapUrl.split('@')[0]!.split(':')[2]!);
      const env = { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
      const email = `mail-${randomBytes(3).toString('hex')}@example.test`;
      await run(process.execPath, [ADMIN, 'user', 'create', '--email', email], { env });
      const { stdout } = await run(process.execPath, [ADMIN, 'key', 'create', '--email', email], { env });
      const token = String((JSON.parse(stdout.trim().split('\n')[0]!) as { token: string }).token);
      const api = async (path: string) => (await fetch(`${started.baseUrl}/api/v1/${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
      const { address } = (await api('me/email')) as { address: string };
      expect(address).toMatch(/^inbox\+[0-9a-f]{24}@mail\.example\.test$/);

      await dovecot.append(rawMail({ to: address, subject: 'From the process' }));
      const items = await waitFor(
        async () => {
          const page = (await api('items')) as { items: Array<{ title: string }> };
          return page.items.length > 0 ? page.items : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
      expect(items.map((i) => i.title)).toEqual(['From the process']);
      // Counted once the message is moved, a moment after the item is there.
      await waitFor(async () => /capture_inbox_email_in_captured_total 1\n/.test(await (await fetch(`${started.baseUrl}/metrics`)).text()), {
        timeoutMs: 10_000,
      });
      expect(await started.stop()).toBe(0);
      server = undefined;
    }, 60_000);
  });
});
