import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDriver from '../../src/db/sqlite/sqlite-driver.js';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-stmt-'));
  dirs.push(dir);
  const path = join(dir, 'db.sqlite');
  return { path, handle: createDb(`sqlite:${path}`) };
}

describe('SQLite statement cache with rows built from raw arrays', () => {
  it('answers rows as objects keyed by column name, nulls and numbers included', async () => {
    const { handle } = tempDb();
    await sql`create table t (a integer, b text)`.execute(handle.db);
    await sql`insert into t values (1, 'one'), (2, null)`.execute(handle.db);
    const select = () => sql<{ a: number; b: string | null }>`select a, b from t order by a`.execute(handle.db);
    expect((await select()).rows).toEqual([
      { a: 1, b: 'one' },
      { a: 2, b: null },
    ]);
    // The second run reuses the cached statement.
    expect((await select()).rows).toEqual([
      { a: 1, b: 'one' },
      { a: 2, b: null },
    ]);
    await handle.db.destroy();
  });

  it('keys rows by any column name: quotes, backslashes, __proto__, and the last of two equal names', async () => {
    const { handle } = tempDb();
    const { rows } = await sql<Record<string, unknown>>`select 1 as "we""ird", 2 as "back\\slash", 3 as "__proto__", 4 as "line
break", 5 as a, 6 as a`.execute(handle.db);
    const [row] = rows;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(3);
    expect(Object.entries(row!)).toEqual([
      ['we"ird', 1],
      ['back\\slash', 2],
      ['__proto__', 3],
      ['line\nbreak', 4],
      ['a', 6],
    ]);
    await handle.db.destroy();
  });

  it('sees new columns after a schema change on the same connection and on another one', async () => {
    const { path, handle } = tempDb();
    await sql`create table t (a integer)`.execute(handle.db);
    await sql`insert into t values (1)`.execute(handle.db);
    const all = () => sql<Record<string, unknown>>`select * from t`.execute(handle.db).then((r) => r.rows);
    expect(await all()).toEqual([{ a: 1 }]);
    await sql`alter table t add column b text default 'x'`.execute(handle.db);
    expect(await all()).toEqual([{ a: 1, b: 'x' }]);
    const other = new SqliteDriver(path);
    other.exec(`alter table t add column c integer default 7`);
    other.close();
    // Reads run back to back share a snapshot (read-snapshot.ts); the next turn of the loop takes a new one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await all()).toEqual([{ a: 1, b: 'x', c: 7 }]);
    await handle.db.destroy();
  });

  it('starts transactions with the write lock, so a writer in another process waits instead of failing', async () => {
    const { path, handle } = tempDb();
    await sql`create table t (a integer)`.execute(handle.db);
    const other = new SqliteDriver(path);
    other.pragma('busy_timeout = 0');
    await handle.db.transaction().execute(async (trx) => {
      await sql`select count(*) from t`.execute(trx);
      // A deferred BEGIN would hold no lock yet after a read; an immediate one holds the write lock.
      expect(() => other.exec(`insert into t values (1)`)).toThrow(/locked|busy/i);
    });
    other.exec(`insert into t values (2)`);
    other.close();
    await handle.db.destroy();
  });

  it("waits for another process's write lock without blocking the event loop, then commits", async () => {
    const { path, handle } = tempDb();
    await sql`create table t (a integer)`.execute(handle.db);
    const other = new SqliteDriver(path);
    other.exec('begin immediate');
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 5);
    const write = handle.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
    });
    await new Promise((r) => setTimeout(r, 100));
    // SQLite's own busy handler would have held this thread the whole time.
    expect(ticks).toBeGreaterThanOrEqual(5);
    other.exec('commit');
    await write;
    clearInterval(ticker);
    expect(other.prepare('select count(*) as n from t').get()).toEqual({ n: 1 });
    other.close();
    await handle.db.destroy();
  });
});
