import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ImapFlow } from 'imapflow';
import { DOVECOT, findProgram } from './system-programs.js';
import { waitFor } from './wait.js';

/*
 * A real IMAP server for the email-in tests: Debian's dovecot (dovecot-imapd), started with its own
 * configuration in a temporary directory (mail, run files, log, a passwd-file with a plain
 * password), listening on 127.0.0.1 only, without TLS, stopped by its pid. Guard a test with
 * `lacking(DOVECOT)`. As root (CI) dovecot refuses to run its processes as root, so they run as
 * Debian's dovecot and dovenull users and the mail directory is theirs; otherwise as the current user.
 */

const MAILBOX_USER = 'reader';
const MAILBOX_PASSWORD = 'reader-password';

export interface MailMessage {
  uid: number;
  seen: boolean;
  subject: string;
  messageId: string;
}

export interface Dovecot {
  port: number;
  dir: string;
  /** EMAIL_IN_IMAP_URL for the mailbox. */
  imapUrl: string;
  /** Puts a message into a mailbox by IMAP APPEND (INBOX unless named). */
  append(raw: string | Buffer, mailbox?: string, flags?: string[]): Promise<void>;
  /** The messages of a mailbox ([] when it does not exist). */
  list(mailbox: string): Promise<MailMessage[]>;
  /** Stops the server (by its process group, the pid started) and waits until it is gone; start() brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  log(): string;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function idOf(name: string, flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
}

function configText(dir: string, port: number): string {
  const root = process.getuid?.() === 0;
  const me = userInfo();
  const users = root
    ? { internal: 'dovecot', internalGroup: 'dovecot', login: 'dovenull', uid: 'dovecot', gid: 'dovecot' }
    : { internal: me.username, internalGroup: me.username, login: me.username, uid: String(me.uid), gid: String(me.gid) };
  return `# Written by test/helpers/dovecot.ts
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = cin-test-${port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${users.internal}
default_internal_group = ${users.internalGroup}
default_login_user = ${users.login}
first_valid_uid = 1
first_valid_gid = 1
log_path = ${dir}/dovecot.log
info_log_path = ${dir}/dovecot.log
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${users.uid} gid=${users.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
service stats {
  inet_listener http {
    port = 0
  }
}
protocol imap {
  mail_max_userip_connections = 100
}
`;
}

export async function startDovecot(): Promise<Dovecot> {
  const program = findProgram(DOVECOT);
  if (!program) throw new Error('dovecot is not installed (guard the test with lacking(DOVECOT))');
  const dir = mkdtempSync(join(tmpdir(), 'cin-dovecot-'));
  const port = await freePort();
  mkdirSync(join(dir, 'mail'));
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(dir, 'passwd'), `${MAILBOX_USER}:{PLAIN}${MAILBOX_PASSWORD}\n`);
  writeFileSync(join(dir, 'dovecot.conf'), configText(dir, port));
  if (process.getuid?.() === 0) {
    // dovecot's own users must reach the files: the directory is mkdtemp's 0700 otherwise.
    chmodSync(dir, 0o755);
    const uid = idOf('dovecot', '-u');
    const gid = idOf('dovecot', '-g');
    chownSync(join(dir, 'mail'), uid, gid);
    chownSync(join(dir, 'home'), uid, gid);
  }
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    // Its own process group: stop() ends the master and every child it forked (the imap processes
    // outlive a master stopped alone, and a reader would never see its connection go).
    const proc = spawn(program!, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child = proc;
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`dovecot exited (${proc.exitCode}): ${stderr}`);
        return accepts(port);
      },
      { timeoutMs: 15_000, what: () => `dovecot on port ${port}: ${stderr}` },
    );
  }

  async function stop(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.pid === undefined) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    process.kill(-proc.pid, 'SIGTERM');
    await exited;
    // The master exits after its children; the port is free once nothing accepts on it.
    await waitFor(async () => !(await accepts(port)), { timeoutMs: 10_000, what: 'dovecot to stop listening' });
  }

  async function withClient<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      auth: { user: MAILBOX_USER, pass: MAILBOX_PASSWORD },
      logger: false,
      disableAutoIdle: true,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  await start();
  return {
    port,
    dir,
    imapUrl: `imap://${MAILBOX_USER}:${MAILBOX_PASSWORD}@127.0.0.1:${port}/INBOX`,
    start,
    stop,
    log: () => {
      try {
        return readFileSync(join(dir, 'dovecot.log'), 'utf8');
      } catch {
        return '';
      }
    },
    append: (raw, mailbox = 'INBOX', flags = []) =>
      withClient(async (client) => {
        await client.append(mailbox, typeof raw === 'string' ? Buffer.from(raw) : raw, flags);
      }),
    list: (mailbox) =>
      withClient(async (client) => {
        const boxes = await client.list();
        if (!boxes.some((box) => box.path === mailbox)) return [];
        const lock = await client.getMailboxLock(mailbox, { readOnly: true });
        try {
          const out: MailMessage[] = [];
          const status = client.mailbox;
          if (!status || status.exists === 0) return out;
          for await (const message of client.fetch('1:*', { uid: true, flags: true, envelope: true })) {
            out.push({
              uid: message.uid,
              seen: message.flags?.has('\\Seen') ?? false,
              subject: message.envelope?.subject ?? '',
              messageId: message.envelope?.messageId ?? '',
            });
          }
          return out;
        } finally {
          lock.release();
        }
      }),
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
