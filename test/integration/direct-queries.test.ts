import { sql, type CompiledQuery, type Kysely, type LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directQueriesOf, offerDirectQueries, type DirectQuery } from '../../src/db/direct-queries.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import type { Db } from '../../src/db/schema.js';
import { openDatabase } from '../../src/open-database.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestDb, type TestDb } from '../helpers/test-db.js';

type Row = { id: number; owner: string; word: string | null };
/** The service's schema does not have this test's table. */
const lane = (db: Db) => db as unknown as Kysely<{ lane_t: Row }>;

const byOwner = preparedQuery((db, p: { owner: string }) => lane(db).selectFrom('lane_t').select(['id', 'word']).where('owner', '=', p.owner).orderBy('id'));
const addRow = preparedQuery((db, p: { id: number; owner: string; word: string }) =>
  lane(db).insertInto('lane_t').values({ id: p.id, owner: p.owner, word: p.word }),
);

async function makeTable(db: Db): Promise<void> {
  await sql`create table lane_t (id integer primary key, owner text not null, word text)`.execute(db);
  await sql`insert into lane_t (id, owner, word) values (1, 'a', 'one'), (2, 'a', 'two'), (3, 'b', 'three')`.execute(db);
}

interface Taken {
  query: CompiledQuery;
  /** False when the lane handed the query back to Kysely. */
  answered: boolean;
}

/** Replaces the database's lane with one that records the queries it is handed, for the length of `run`. */
async function counting<T>(db: Db, run: (taken: Taken[]) => Promise<T>): Promise<T> {
  const adapter = db.getExecutor().adapter;
  const offered = directQueriesOf(adapter);
  if (!offered) throw new Error('no direct lane offered');
  const taken: Taken[] = [];
  const spy: DirectQuery = (query) => {
    const rows = offered(query);
    taken.push({ query, answered: rows !== undefined });
    return rows;
  };
  offerDirectQueries(adapter, spy);
  try {
    return await run(taken);
  } finally {
    offerDirectQueries(adapter, offered);
  }
}

describe.each(DIALECTS)('prepared queries outside a transaction take the direct lane (%s)', (dialect) => {
  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    db = t.handle.db;
    await makeTable(db);
  });
  afterAll(async () => t.destroy());

  it('answers what Kysely’s path answers, and a transaction’s queries stay on Kysely’s path', async () => {
    await counting(db, async (taken) => {
      const direct = await byOwner(db, { owner: 'a' });
      expect(taken.map((x) => x.answered)).toEqual([true]);
      const viaKysely = await db.transaction().execute((trx) => byOwner(trx, { owner: 'a' }));
      expect(taken).toHaveLength(1);
      expect(direct).toEqual([
        { id: 1, word: 'one' },
        { id: 2, word: 'two' },
      ]);
      expect(viaKysely).toEqual(direct);
    });
  });

  it('sees committed writes only: a transaction sees its own rows, the lane sees them once it commits', async () => {
    await db.transaction().execute(async (trx) => {
      await addRow(trx, { id: 10, owner: 'c', word: 'ten' });
      expect(await byOwner(trx, { owner: 'c' })).toEqual([{ id: 10, word: 'ten' }]);
      expect(await byOwner(db, { owner: 'c' })).toEqual([]);
    });
    expect(await byOwner(db, { owner: 'c' })).toEqual([{ id: 10, word: 'ten' }]);
  });

  it('writes outside a transaction land (SQLite hands them to group commit, PostgreSQL runs them on the lane)', async () => {
    await counting(db, async (taken) => {
      await addRow(db, { id: 20, owner: 'd', word: 'twenty' });
      expect(taken.map((x) => x.answered)).toEqual([dialect === 'postgres']);
    });
    expect(await byOwner(db, { owner: 'd' })).toEqual([{ id: 20, word: 'twenty' }]);
  });

  it('an error in SQL reaches the caller as the database’s error', async () => {
    const broken = preparedQuery((q, p: { owner: string }) =>
      (q as unknown as Kysely<{ lane_missing: Row }>).selectFrom('lane_missing').select('id').where('owner', '=', p.owner),
    );
    await expect(broken(db, { owner: 'a' })).rejects.toThrow(/lane_missing/);
  });
});

describe.each(DIALECTS)('the direct lane’s edges (%s)', (dialect) => {
  it('is not offered when Kysely logs queries: every query is then seen by the log', async () => {
    const events: LogEvent[] = [];
    const t = await createTestDb(dialect, { onQuery: (event) => events.push(event) });
    try {
      expect(directQueriesOf(t.handle.db.getExecutor().adapter)).toBeUndefined();
      await makeTable(t.handle.db);
      events.length = 0;
      await byOwner(t.handle.db, { owner: 'b' });
      expect(events.map((e) => e.query.sql).filter((s) => s.includes('lane_t'))).toHaveLength(1);
    } finally {
      await t.destroy();
    }
  });

  it('a database’s first query opens it through Kysely, the lane takes the next, and once destroyed it refuses queries', async () => {
    const t = await createTestDb(dialect);
    await makeTable(t.handle.db);
    // A second handle on the same data, not used yet: its driver has not opened a connection.
    const fresh = openDatabase(t.url, t.searchPath ? { searchPath: t.searchPath } : {});
    try {
      await counting(fresh.db, async (taken) => {
        expect(await byOwner(fresh.db, { owner: 'b' })).toEqual([{ id: 3, word: 'three' }]);
        expect(await byOwner(fresh.db, { owner: 'b' })).toEqual([{ id: 3, word: 'three' }]);
        expect(taken.map((x) => x.answered)).toEqual([false, true]);
      });
    } finally {
      await fresh.db.destroy();
    }
    await expect(byOwner(fresh.db, { owner: 'b' })).rejects.toThrow();
    await t.destroy();
  });
});
