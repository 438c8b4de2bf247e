import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimSqliteServer, type ServerClaim } from '../../src/db/sqlite/server-claim.js';

describe('claimSqliteServer', () => {
  let dir: string;
  const claims: ServerClaim[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cin-claim-'));
  });
  afterEach(() => {
    for (const claim of claims.splice(0)) claim.release();
    rmSync(dir, { recursive: true, force: true });
  });
  const claim = (url: string, pid: number) => {
    const made = claimSqliteServer(url, { pid, host: 'host-a', now: new Date('2026-11-29T03:00:00Z') });
    if (made) claims.push(made);
    return made;
  };

  it('refuses a second claim of the same file, naming the file and the process that holds it', () => {
    const url = `sqlite:${join(dir, 'data', 'inbox.db')}`;
    expect(claim(url, 101)).toBeDefined();
    expect(() => claim(url, 202)).toThrow(
      /already serves the SQLite database .*inbox\.db \(process 101 on host-a, started 2026-11-29T03:00:00\.000Z\).*WORKERS.*PostgreSQL/,
    );
  });

  it('lets the next server claim the file once the holder let go', () => {
    const url = `sqlite:${join(dir, 'inbox.db')}`;
    claim(url, 101)!.release();
    expect(claim(url, 202)).toBeDefined();
    expect(() => claim(url, 303)).toThrow(/process 202/);
  });

  it('claims nothing on PostgreSQL or in memory, and lets other files be claimed', () => {
    expect(claim('postgres://127.0.0.1/inbox', 1)).toBeUndefined();
    expect(claim('sqlite::memory:', 1)).toBeUndefined();
    expect(claim('sqlite:', 1)).toBeUndefined();
    expect(claim(`sqlite:${join(dir, 'one.db')}`, 1)).toBeDefined();
    expect(claim(`sqlite:${join(dir, 'two.db')}`, 2)).toBeDefined();
  });
});
