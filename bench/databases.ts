import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onCleanup } from './lifecycle.js';

export type BenchDialect = 'sqlite' | 'postgres';

/** The two fresh databases of one comparison, and how to drop them. */
export interface BenchDatabases {
  service: string;
  baseline: string;
  drop(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const CONNECT_TIMEOUT_MS = 10_000;

/** Traffic stays on this machine: a PostgreSQL server anywhere else is refused. */
export function loopbackPostgresUrl(url: string): URL {
  const parsed = new URL(url);
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new Error(`BENCH_PG_URL must be a postgres:// URL, not ${parsed.protocol}`);
  if (!LOOPBACK.has(parsed.hostname)) throw new Error(`BENCH_PG_URL must point at 127.0.0.1, not ${parsed.hostname}`);
  return parsed;
}

/** The URL of database `name` on the same server as `adminUrl`. */
export function databaseUrl(adminUrl: URL, name: string): string {
  const u = new URL(adminUrl.href);
  u.pathname = `/${name}`;
  return u.href;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL backends serving other clients of the database at `url` (a server's pool, its LISTEN connection). */
export async function backendPids(url: string): Promise<number[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()",
    );
    return rows.map((r) => r.pid);
  });
}

/**
 * SQLite: two files in a new temporary directory. PostgreSQL: two new databases
 * bench_<pid>_service and bench_<pid>_baseline on the server of `pgAdminUrl`. Both are removed by
 * drop(), which also runs from the bench's cleanups when the run fails or is interrupted.
 */
export async function createBenchDatabases(dialect: BenchDialect, pgAdminUrl: string): Promise<BenchDatabases> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-bench-'));
    const drop = onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
    return { service: `sqlite:${join(dir, 'service.db')}`, baseline: `sqlite:${join(dir, 'baseline.db')}`, drop };
  }
  const admin = loopbackPostgresUrl(pgAdminUrl);
  const names = [`bench_${process.pid}_service`, `bench_${process.pid}_baseline`] as const;
  const drop = onCleanup(`drop ${names.join(', ')}`, () =>
    withClient(admin.href, async (client) => {
      for (const name of names) await client.query(`drop database if exists "${name}" with (force)`);
    }),
  );
  await withClient(admin.href, async (client) => {
    for (const name of names) {
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.query(`create database "${name}"`);
    }
  });
  return { service: databaseUrl(admin, names[0]), baseline: databaseUrl(admin, names[1]), drop };
}

/**
 * PostgreSQL after seeding: VACUUM ANALYZE, the same for both sides, so neither server's plans
 * depend on whether autovacuum happened to reach its tables before the run.
 */
export async function vacuumAnalyze(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('vacuum analyze');
  });
}

/** One fresh database for a scenario script, and how to drop it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * SQLite: a file in a new temporary directory. PostgreSQL: a new database bench_<pid>_<label> on
 * the server of `pgAdminUrl` (loopback only). Dropped by drop(), and by the bench's cleanups when
 * the script fails or is interrupted.
 */
export async function createScratchDatabase(dialect: BenchDialect, pgAdminUrl: string, label: string): Promise<ScratchDatabase> {
  if (!/^[a-z0-9_]{1,30}$/.test(label)) throw new Error(`a scratch database's label is [a-z0-9_]{1,30}, not ${label}`);
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `inbox-bench-${label}-`));
    const drop = onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
    return { url: `sqlite:${join(dir, 'bench.db')}`, drop };
  }
  const admin = loopbackPostgresUrl(pgAdminUrl);
  const name = `bench_${process.pid}_${label}`;
  const drop = onCleanup(`drop ${name}`, () =>
    withClient(admin.href, async (client) => void (await client.query(`drop database if exists "${name}" with (force)`))),
  );
  await withClient(admin.href, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  return { url: databaseUrl(admin, name), drop };
}
