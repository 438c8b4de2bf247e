import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { Services } from '../container.js';
import type { Plan } from '../db/schema.js';
import { parseScopeList } from '../modules/keys/scopes.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Flags = Record<string, string | undefined>;

/** What a command may use besides the services: its input and output streams. */
export interface CommandIo {
  /** The whole of stdin (set-password reads the password there, never from argv). */
  readStdin(): Promise<string>;
  stdout: Writable;
  /** One line for a person at the terminal (stderr): never part of what a script parses. */
  warn(line: string): void;
}

/** A command that printed its own output (several lines, or a stream) returns this. */
export const PRINTED = Symbol('printed');

const need = (flags: Flags, name: string): string => {
  const value = flags[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
};

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (value !== 'free' && value !== 'pro') throw new UsageError('--plan must be free or pro');
  return value;
}

function scopeList(value: string): ReturnType<typeof parseScopeList> {
  try {
    return parseScopeList(value);
  } catch (error) {
    throw new UsageError(`--scopes: ${(error as Error).message}`);
  }
}

function expiryDays(value: string): number {
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new UsageError('--expires-in-days must be a whole number of days from 1 to 3650');
  return Number(value);
}

function exportFormat(value: string | undefined): 'json' | 'markdown' {
  if (value === undefined || value === 'json' || value === 'markdown') return value ?? 'json';
  throw new UsageError('--format must be json or markdown');
}

/** The password is the first line of stdin; its line ending is not part of it. */
function passwordFrom(input: string, command: string): string {
  const line = input.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new UsageError(`no password on stdin; e.g. printf %s "$NEW_PASSWORD" | npm run --silent admin -- ${command}`);
  return line;
}

const write = (out: Writable, text: string): Promise<void> => new Promise((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));

/** The services the commands call; admin.ts builds them all and closes them after the command. */
type AdminServices = Pick<Services, 'accounts' | 'channels' | 'keys' | 'transfer' | 'users'>;

/**
 * A command in two steps: `flags` reads and checks its flags (a UsageError for a bad one) before
 * admin.ts opens or migrates the database, so a mistyped flag is answered at once and touches
 * nothing; `run` does the work and returns the one JSON value it prints (or PRINTED). operations.md
 * fixes the names and shapes.
 */
export interface AdminCommand {
  check(flags: Flags): void;
  run(services: AdminServices, flags: Flags, io: CommandIo): Promise<unknown>;
}

function command<A>(flags: (f: Flags) => A, run: (services: AdminServices, args: A, io: CommandIo) => Promise<unknown>): AdminCommand {
  return { check: (f) => void flags(f), run: (services, f, io) => run(services, flags(f), io) };
}

const noFlags = (): null => null;

export const COMMANDS: Record<string, AdminCommand> = {
  'user create': command(
    (f) => {
      if (f['password-stdin'] !== undefined && f.password !== undefined) throw new UsageError('give --password or --password-stdin, not both');
      return { email: need(f, 'email'), plan: plan(f.plan), password: f.password, fromStdin: f['password-stdin'] !== undefined };
    },
    async (s, a, io) => {
      const password = a.fromStdin ? passwordFrom(await io.readStdin(), 'user create --email E --password-stdin') : a.password;
      const created = await s.accounts.createUser({ email: a.email, ...(password !== undefined ? { password } : {}), ...(a.plan ? { plan: a.plan } : {}) });
      if (password === undefined) {
        io.warn(
          `admin: ${created.email} has no password and cannot sign in on the web (API keys work); set one with: printf %s "$PASSWORD" | npm run --silent admin -- user set-password --email ${created.email}`,
        );
      }
      return created;
    },
  ),
  'user set-plan': command(
    (f) => ({ email: need(f, 'email'), plan: plan(need(f, 'plan')) as Plan }),
    (s, a) => s.users.setPlan(a.email, a.plan),
  ),
  'user set-password': command(
    (f) => {
      if (f.password !== undefined)
        throw new UsageError('set-password reads the password from stdin; --password would leave it in the shell history and the process list');
      return need(f, 'email');
    },
    async (s, email, io) => {
      const done = await s.accounts.setPassword(email, passwordFrom(await io.readStdin(), 'user set-password --email E'));
      return { ...done, password_set: true, sessions_ended: true };
    },
  ),
  'user list': command(noFlags, async (s, _a, io) => {
    for (const user of await s.users.list()) await write(io.stdout, `${JSON.stringify(user)}\n`);
    return PRINTED;
  }),
  'key create': command(
    (f) => ({
      email: need(f, 'email'),
      label: f.label ?? 'admin CLI',
      scopes: f.scopes === undefined ? undefined : scopeList(f.scopes),
      days: f['expires-in-days'] === undefined ? undefined : expiryDays(f['expires-in-days']),
    }),
    async (s, a) => {
      const user = await s.users.requireByEmail(a.email);
      const key = await s.keys.mint(user.id, a.label, {
        ...(a.scopes ? { scopes: a.scopes } : {}),
        ...(a.days !== undefined ? { expiresInDays: a.days } : {}),
      });
      // operations.md fixes key_id and token; scopes and expires_at are added beside them.
      return { key_id: key.key_id, token: key.token, scopes: key.scopes, expires_at: key.expires_at };
    },
  ),
  // The VAPID key pair is made at the server's first start; this prints its public half.
  'push keys': command(noFlags, async (s) => ({ public_key: await s.channels.publicKey() })),
  'key revoke': command(
    (f) => need(f, 'key-id'),
    async (s, keyId) => {
      await s.keys.revoke(keyId);
      return { key_id: keyId, revoked: true };
    },
  ),
  export: command(
    (f) => ({ email: need(f, 'email'), format: exportFormat(f.format) }),
    async (s, a, io) => {
      const user = await s.users.requireByEmail(a.email);
      await pipeline(s.transfer.exportData(user.id, a.format).body, io.stdout, { end: false });
      return PRINTED;
    },
  ),
};

/** Every command `admin` runs: the table above, and the two that need no services. */
export const ADMIN_COMMAND_NAMES: readonly string[] = [...Object.keys(COMMANDS), 'backup', 'migrate', 'help'];

/** What `admin --help` (or `admin help`) prints; operations.md's table says the same at length. */
export const ADMIN_USAGE = `usage: admin user create --email E [--password-stdin | --password P] [--plan free|pro]
                                                (no --plan: the first user, the owner, is pro; others DEFAULT_PLAN)
       admin user set-plan --email E --plan free|pro
       admin user set-password --email E        (the password is read from stdin)
       admin user list                          (one JSON line per user)
       admin key create --email E [--label L] [--scopes read,capture,write,webhooks] [--expires-in-days N]
       admin key revoke --key-id K
       admin backup --to FILE                   (SQLite, while the server runs; PostgreSQL: pg_dump)
       admin export --email E [--format json|markdown]
       admin push keys                          (the VAPID public key for web push)
       admin migrate
       admin --help                             (this list)`;
