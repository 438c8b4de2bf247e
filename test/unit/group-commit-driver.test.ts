import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDriver from '../../src/db/sqlite/sqlite-driver.js';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { syncUnitsOf } from '../../src/db/sqlite/sync-units.js';
import { MAX_UNITS_PER_COMMIT } from '../../src/db/sqlite/writer-batches.js';

/*
 * The SQLite driver's group commit (src/db/sqlite/group-commit-driver.ts): concurrent transactions
 * share one commit, each keeps its own failure to itself, nobody is answered before the commit, and
 * reads outside a transaction see committed data only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test's own ad-hoc tables, as in a migration
type AnyDb = Kysely<any>;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDb(): Promise<{ db: AnyDb; path: string; commits: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-gc-'));
  const path = join(dir, 'db.sqlite');
  const commits: number[] = [];
  const { db } = createDb(`sqlite:${path}`, { onCommit: (units) => commits.push(units) });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => db.destroy());
  await sql`create table t (id integer primary key, v text not null)`.execute(db);
  commits.length = 0;
  return { db: db as AnyDb, path, commits };
}

const insert = (db: AnyDb, id: number, v = `v${id}`) => sql`insert into t (id, v) values (${id}, ${v})`.execute(db);
const ids = async (db: AnyDb) => (await sql<{ id: number }>`select id from t order by id`.execute(db)).rows.map((r) => r.id);
const otherConnection = (path: string) => {
  const other = new SqliteDriver(path);
  cleanups.push(() => {
    other.close();
  });
  return other;
};

describe('SQLite group commit', () => {
  it('commits concurrent transactions together, and answers each after the commit', async () => {
    const { db, path, commits } = await tempDb();
    const outside = otherConnection(path);
    const done = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db
          .transaction()
          .execute(async (trx) => {
            await insert(trx, i + 1);
            return i;
          })
          .then((i) => {
            // Answered only once committed: another connection already sees the row.
            expect(outside.prepare('select count(*) as n from t where id = ?').get(i + 1)).toEqual({ n: 1 });
            return i;
          }),
      ),
    );
    expect(done).toHaveLength(20);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(20);
    expect(commits.length).toBeLessThan(20);
    expect(await ids(db)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('commits after at most MAX_UNITS_PER_COMMIT transactions', async () => {
    const { db, commits } = await tempDb();
    await Promise.all(Array.from({ length: MAX_UNITS_PER_COMMIT * 2 + 5 }, (_, i) => db.transaction().execute((trx) => insert(trx, i + 1))));
    expect(Math.max(...commits)).toBeLessThanOrEqual(MAX_UNITS_PER_COMMIT);
    expect((await ids(db)).length).toBe(MAX_UNITS_PER_COMMIT * 2 + 5);
  });

  it('rolls back only the transaction that failed, not the others of its commit', async () => {
    const { db } = await tempDb();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await insert(trx, i + 1);
          if (i === 4) throw new Error('refused');
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i === 4 ? 'rejected' : 'fulfilled')));
    expect(await ids(db)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
  });

  it('fails every transaction of a commit that SQLite rolled back as a whole, and stays usable', async () => {
    const { db } = await tempDb();
    await sql`create trigger t_boom after insert on t when new.v = 'boom' begin select raise(rollback, 'boom'); end`.execute(db);
    const results = await Promise.allSettled([
      db.transaction().execute((trx) => insert(trx, 1)),
      db.transaction().execute((trx) => insert(trx, 2, 'boom')),
      db.transaction().execute((trx) => insert(trx, 3)),
    ]);
    // The first had finished its part when the second took the shared transaction down with it.
    expect(results[0]?.status).toBe('rejected');
    expect(results[1]?.status).toBe('rejected');
    expect(results[2]?.status).toBe('fulfilled');
    expect(await ids(db)).toEqual([3]);
    await db.transaction().execute((trx) => insert(trx, 4));
    expect(await ids(db)).toEqual([3, 4]);
  });

  it('reads outside a transaction see committed data only, without waiting for the writer', async () => {
    const { db } = await tempDb();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const writing = db.transaction().execute(async (trx) => {
      await insert(trx, 1);
      inserted();
      await held;
    });
    await didInsert;
    expect(await ids(db)).toEqual([]);
    release();
    await writing;
    expect(await ids(db)).toEqual([1]);
  });

  it("reads run back to back share one snapshot; once the event loop moves on they see another connection's commit", async () => {
    const { db, path } = await tempDb();
    const outside = otherConnection(path);
    expect(await ids(db)).toEqual([]);
    outside.prepare("insert into t (id, v) values (1, 'x')").run();
    // Still the promise jobs that followed the first read: its snapshot, so the lookup did not pay for a transaction of its own.
    expect(await ids(db)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ids(db)).toEqual([1]);
  });

  it('ends a snapshot before the event loop takes in anything else, so a read after an answer sees what the answer saw', async () => {
    const { db, path } = await tempDb();
    const outside = otherConnection(path);
    let committed!: Promise<void>;
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        // Another process commits and says so: here, a timer that is due when the loop turns next.
        committed = new Promise<void>((done) =>
          setTimeout(() => {
            outside.prepare("insert into t (id, v) values (1, 'x')").run();
            done();
          }, 0),
        );
        const due = Date.now() + 3;
        while (Date.now() < due);
        // A read in the check phase: a snapshot kept until the next turn's immediates would outlive that timer.
        void ids(db).then(() => resolve());
      }),
    );
    await committed;
    expect(await ids(db)).toEqual([1]);
  });

  it('a read after a commit of this process sees it, even in the turn a snapshot was opened before the commit', async () => {
    const { db } = await tempDb();
    // A turn with no commit in it, so the transaction below begins at once and queues its commit now.
    await new Promise((resolve) => setTimeout(resolve, 5));
    // This read runs in the check phase just before that commit, so its snapshot would last past the commit.
    const readBefore = new Promise<number[]>((resolve) => setImmediate(() => void ids(db).then(resolve)));
    const written = db.transaction().execute((trx) => insert(trx, 1));
    expect(await readBefore).toEqual([]);
    await written;
    expect(await ids(db)).toEqual([1]);
  });

  it('streams rows of a read while other reads and commits go on', async () => {
    const { db } = await tempDb();
    for (let i = 1; i <= 5; i += 1) await insert(db, i);
    const streamed: number[] = [];
    for await (const row of db.selectFrom('t').select('id').orderBy('id').stream()) {
      streamed.push(row.id as number);
      expect(await ids(db)).toHaveLength(4 + streamed.length);
      await insert(db, 5 + streamed.length);
    }
    expect(streamed).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers a write outside a transaction after its commit', async () => {
    const { db, path } = await tempDb();
    const outside = otherConnection(path);
    await insert(db, 7);
    expect(outside.prepare('select id from t').all()).toEqual([{ id: 7 }]);
  });

  it('sends a write to a virtual table outside a transaction to the writer', async () => {
    const { db } = await tempDb();
    await sql`create virtual table f using fts5(x)`.execute(db);
    await sql`insert into f (rowid, x) values (1, 'hello')`.execute(db);
    expect((await sql<{ rowid: number }>`select rowid from f where f match 'hello'`.execute(db)).rows).toEqual([{ rowid: 1 }]);
  });

  it('runs schema changes on the writer, whose schema is current (drop an index, create it again)', async () => {
    const { db } = await tempDb();
    await sql`create unique index t_v on t (v)`.execute(db);
    await sql`drop index t_v`.execute(db);
    await sql`update t set v = 'x' where id = 0`.execute(db);
    await sql`create unique index t_v on t (v)`.execute(db);
    await sql`create table u (a integer)`.execute(db);
    expect((await sql<{ a: number }>`select a from u`.execute(db)).rows).toEqual([]);
  });

  it('takes turns with another connection that writes continuously, instead of starving it', async () => {
    const { db, path } = await tempDb();
    const { db: second } = createDb(`sqlite:${path}`);
    cleanups.push(() => second.destroy());
    const until = Date.now() + 1_500;
    let n = 0;
    const busy = (async () => {
      while (Date.now() < until) await db.transaction().execute((trx) => insert(trx, (n += 1)));
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await sql`insert into t (id, v) values (1000000, 'second')`.execute(second);
    expect(Date.now() - started).toBeLessThan(500);
    await busy;
  });

  it('waits for another process that holds the write lock instead of failing', async () => {
    const { db, path } = await tempDb();
    const other = otherConnection(path);
    other.exec('begin immediate');
    other.exec(`insert into t (id, v) values (100, 'other')`);
    const waiting = db.transaction().execute((trx) => insert(trx, 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    other.exec('commit');
    await waiting;
    expect(await ids(db)).toEqual([1, 100]);
  });
});

describe('the writer hold watch', () => {
  async function watchedDb(thresholdMs: number): Promise<{ db: AnyDb; reports: Array<{ heldMs: number; stack: string }> }> {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-gc-'));
    const reports: Array<{ heldMs: number; stack: string }> = [];
    const { db } = createDb(`sqlite:${join(dir, 'db.sqlite')}`, {
      sqliteHoldWatch: { thresholdMs, report: (heldMs, stack) => reports.push({ heldMs, stack }) },
    });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => db.destroy());
    await sql`create table t (id integer primary key, v text not null)`.execute(db);
    return { db: db as AnyDb, reports };
  }

  async function transactionThatAwaitsOutside(db: AnyDb): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await insert(trx, 1);
      // Stands for a network call: the unit keeps the writer across turns of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      await insert(trx, 2);
    });
  }

  it('reports a transaction that held the writer past the threshold, with the stack that began it', async () => {
    const { db, reports } = await watchedDb(0);
    await transactionThatAwaitsOutside(db);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.heldMs).toBeGreaterThan(0);
    expect(reports[0]!.stack).toMatch(/transactionThatAwaitsOutside/);
    expect(await ids(db)).toEqual([1, 2]);
  });

  it('stays quiet under the threshold, and reports a transaction that failed too', async () => {
    const quiet = await watchedDb(60_000);
    await transactionThatAwaitsOutside(quiet.db);
    expect(quiet.reports).toEqual([]);
    const loud = await watchedDb(0);
    await expect(
      loud.db.transaction().execute(async (trx) => {
        await insert(trx, 1);
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('gave up');
      }),
    ).rejects.toThrow('gave up');
    expect(loud.reports).toHaveLength(1);
  });
});

describe('SQLite synchronous units (sync-units.ts)', () => {
  it('runs a synchronous unit in the shared commit, answered after it, and rolls back only that unit when its work throws', async () => {
    const { db, path, commits } = await tempDb();
    const outside = otherConnection(path);
    const unit = syncUnitsOf(db.getExecutor().adapter)!;
    const compiled = (id: number) => sql`insert into t (id, v) values (${id}, ${`v${id}`}) returning id`.compile(db);
    const [kept, failed, alongside] = await Promise.allSettled([
      unit((run) => {
        const rows = run(compiled(1));
        return rows;
      }),
      unit((run) => {
        run(compiled(2));
        throw new Error('refused');
      }),
      db.transaction().execute((trx) => insert(trx, 3)),
    ]);
    expect(kept).toEqual({ status: 'fulfilled', value: [{ id: 1 }] });
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: 'refused' } });
    expect(alongside.status).toBe('fulfilled');
    expect(outside.prepare('select id from t order by id').all()).toEqual([{ id: 1 }, { id: 3 }]);
    // A failed unit is not counted as carried by the commit.
    expect(commits).toEqual([2]);
  });
});
