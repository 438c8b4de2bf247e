import { existsSync, statSync } from 'node:fs';
import SqliteDriver from './sqlite/sqlite-driver.js';
import { dialectOf } from './create-db.js';

class BackupRefused extends Error {
  override readonly name = 'BackupRefused';
}

/**
 * A consistent copy of the SQLite database through SQLite's online backup API: the server may keep
 * writing meanwhile (a `cp` of a live WAL database is not a backup). PostgreSQL has its own tool.
 */
export async function backupDatabase(databaseUrl: string, to: string): Promise<{ to: string; bytes: number }> {
  if (dialectOf(databaseUrl) === 'postgres') {
    throw new BackupRefused('DATABASE_URL is PostgreSQL: back it up with pg_dump, e.g. pg_dump --format=custom --file=FILE "$DATABASE_URL"');
  }
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === '' || path === ':memory:') throw new BackupRefused('an in-memory database has nothing to back up');
  if (existsSync(to)) throw new BackupRefused(`${to} exists already; choose a new file`);
  const source = new SqliteDriver(path, { fileMustExist: true });
  try {
    await source.backup(to);
  } finally {
    source.close();
  }
  return { to, bytes: statSync(to).size };
}
