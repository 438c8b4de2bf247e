import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { startServerProcess } from '../helpers/server-process.js';

const SERVER = resolve(import.meta.dirname, '../../dist/server.js');

/** The JSON log lines of a process's output. */
function logLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/*
 * What an operator reads at start: which database (never its password), each migration an upgrade
 * applies and nothing when the schema is current, and a refused DATABASE_URL named as such before
 * anything connects. The server runs with an empty PATH, as on a machine without ffmpeg or
 * pocketsphinx: it starts and serves, and says voice is off.
 */
describe('the start log of the server process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-start-log-'));
  const noPrograms = join(dir, 'no-programs');
  mkdirSync(noPrograms);
  const file = join(dir, 'inbox.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the SQLite file, and on a new database logs each migration it applies', async () => {
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${file}`, PATH: noPrograms, SECRET_KEY: '07'.repeat(32) }, 30_000, { cwd: dir });
    try {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      const lines = logLines(server.output());
      expect(lines.filter((l) => l.msg === 'database')).toEqual([expect.objectContaining({ level: 30, database: { dialect: 'sqlite', file } })]);
      expect(lines.find((l) => l.msg === 'migrating the database schema')).toMatchObject({ level: 30, pending: Object.keys(migrations).length });
      const applied = lines.filter((l) => l.msg === 'applied migration');
      expect(applied.map((l) => l.migration)).toEqual(Object.keys(migrations));
      expect(applied.every((l) => l.level === 30)).toBe(true);
      expect(lines.find((l) => l.msg === 'transcription unavailable: POST /voice/transcribe answers 503')).toMatchObject({
        reason: expect.stringMatching(/ffmpeg/),
      });
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('logs no migration when the schema is current', async () => {
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${file}`, PATH: noPrograms, SECRET_KEY: '07'.repeat(32) }, 30_000, { cwd: dir });
    try {
      const lines = logLines(server.output());
      expect(lines.filter((l) => l.msg === 'database')).toHaveLength(1);
      expect(lines.filter((l) => /migrat/.test(String(l.msg)))).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('refuses a PostgreSQL URL without a database name before connecting, naming DATABASE_URL and not the password', () => {
    // Port 9 (discard): were anything to connect, it would fail differently.
    const run = spawnSync(process.execPath, [SERVER], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: 'postgres://inbox:hunter2@127.0.0.1:9', PORT: '0', LOG_LEVEL: 'info' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/DATABASE_URL names no database/);
    expect(run.stdout + run.stderr).not.toContain('hunter2');
    expect(run.stdout + run.stderr).not.toMatch(/ECONNREFUSED/);
  });

  it('names DATABASE_URL when the database cannot be reached', () => {
    const run = spawnSync(process.execPath, [SERVER], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: 'postgres://inbox:hunter2@127.0.0.1:9/inbox', PORT: '0', LOG_LEVEL: 'info' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^DATABASE_URL: .*ECONNREFUSED/m);
    expect(logLines(run.stdout).find((l) => l.msg === 'database')).toMatchObject({
      database: { dialect: 'postgres', host: '127.0.0.1', port: 9, database: 'inbox' },
    });
    expect(run.stdout + run.stderr).not.toContain('hunter2');
  });
});
