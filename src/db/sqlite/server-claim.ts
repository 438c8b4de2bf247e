import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type SQLite from 'better-sqlite3';
import SqliteDriver from './sqlite-driver.js';

/*
 * One server per SQLite file (decisions/0067). A server's live-stream wake-ups and its rate-limit
 * counters are shared between processes only through a cluster's primary (WORKERS): a second
 * server on the same file would miss the first's changes in its streams and keep a budget of its
 * own, silently. So the server (or the primary) claims the file before it migrates or serves.
 *
 * The claim is a write lock held for the process's life on a small SQLite database beside the file
 * (`<file>-server`): the operating system drops it when the process ends however it ends (even
 * SIGKILL), so no stale claim ever outlives its server. The lock file holds who claimed it, for the
 * message of a refused start. The admin CLI and the cluster's workers never claim: they work beside
 * the server, as operations.md promises.
 */

/** How long a start waits for a claim another start is making (their setup writes only take a moment). */
const WAIT_MS = 1_000;

export interface ServerClaim {
  /** Lets the next server claim the file (the process's exit does the same). */
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  started_at: string;
}

const isBusy = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

/** The file a `sqlite:` URL names; undefined for PostgreSQL and for an in-memory database, which nothing else can open. */
function sqliteFileOf(url: string): string | undefined {
  if (!url.startsWith('sqlite:')) return undefined;
  const path = url.slice('sqlite:'.length);
  return path === '' || path === ':memory:' ? undefined : path;
}

function refusal(file: string, holder: Holder | undefined): Error {
  const who = holder ? `process ${holder.pid} on ${holder.host}, started ${holder.started_at}` : 'another process';
  return new Error(
    `another server already serves the SQLite database ${file} (${who}); a second server on the same file would miss ` +
      `the first one's changes in its live streams and count rate limits on its own. Stop that server first; to serve ` +
      `with more processes, set WORKERS on the one server (its workers share the file); to run several servers, use ` +
      `PostgreSQL. The admin CLI (npm run admin) works while the server runs.`,
  );
}

function readHolder(lock: SQLite.Database): Holder | undefined {
  try {
    return lock.prepare('select pid, host, started_at from holder').get() as Holder | undefined;
  } catch {
    // The first server ever has not written itself down yet.
    return undefined;
  }
}

/**
 * Claims the database of `url` for this server process, or throws an error that names the process
 * serving it. Nothing to claim on PostgreSQL (several servers share it by design) or in memory.
 */
export function claimSqliteServer(
  url: string,
  self: { pid: number; host: string; now: Date } = { pid: process.pid, host: hostname(), now: new Date() },
): ServerClaim | undefined {
  const file = sqliteFileOf(url);
  if (file === undefined) return undefined;
  mkdirSync(dirname(file), { recursive: true });
  const lock = new SqliteDriver(`${file}-server`);
  const refuse = (): never => {
    const holder = readHolder(lock);
    lock.close();
    throw refusal(file, holder);
  };
  try {
    lock.pragma(`busy_timeout = ${WAIT_MS}`);
    lock.exec('begin immediate');
  } catch (error) {
    if (isBusy(error)) refuse();
    lock.close();
    throw error;
  }
  lock.exec('create table if not exists holder (pid integer not null, host text not null, started_at text not null)');
  lock.exec('delete from holder');
  lock.prepare('insert into holder (pid, host, started_at) values (?, ?, ?)').run(self.pid, self.host, self.now.toISOString());
  lock.exec('commit');
  // Held from here on: an open write transaction (a RESERVED lock) that writes nothing. Others may
  // read who holds it; no other server can begin one. Another start may win the moment between.
  try {
    lock.exec('begin immediate');
  } catch (error) {
    if (isBusy(error)) refuse();
    lock.close();
    throw error;
  }
  return {
    release() {
      if (lock.open) lock.close();
    },
  };
}
