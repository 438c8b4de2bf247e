import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { preparedQuery } from '../../src/db/prepared-query.js';

let handle: DbHandle;
beforeEach(async () => {
  handle = createDb('sqlite::memory:');
  await sql`create table t (id integer primary key, owner text not null, word text)`.execute(handle.db);
  await sql`insert into t (id, owner, word) values (1, 'a', 'one'), (2, 'a', 'two'), (3, 'b', 'three'), (4, 'a', null)`.execute(handle.db);
});
afterEach(async () => {
  await handle.db.destroy();
});

const rows = preparedQuery((db, p: { owner: string; ids: readonly number[] | undefined; take: number }, order) => {
  let query = db
    .selectFrom(sql<{ id: number; owner: string; word: string | null }>`t`.as('t'))
    .select(['id', 'word'])
    .where('owner', '=', p.owner);
  if (p.ids !== undefined) query = query.where('id', 'in', p.ids);
  return query.orderBy('id', order === 'desc' ? 'desc' : 'asc').limit(p.take);
});

describe('preparedQuery', () => {
  it('runs one compiled query with each call’s values', async () => {
    expect(await rows(handle.db, { owner: 'a', ids: undefined, take: 10 })).toEqual([
      { id: 1, word: 'one' },
      { id: 2, word: 'two' },
      { id: 4, word: null },
    ]);
    expect(await rows(handle.db, { owner: 'b', ids: undefined, take: 10 })).toEqual([{ id: 3, word: 'three' }]);
    expect(await rows(handle.db, { owner: 'a', ids: undefined, take: 1 })).toEqual([{ id: 1, word: 'one' }]);
  });

  it('keeps a template per shape: undefined parameters, list lengths and the shape argument', async () => {
    expect(await rows(handle.db, { owner: 'a', ids: [2], take: 10 })).toEqual([{ id: 2, word: 'two' }]);
    expect(await rows(handle.db, { owner: 'a', ids: [4, 1], take: 10 })).toEqual([
      { id: 1, word: 'one' },
      { id: 4, word: null },
    ]);
    expect(await rows(handle.db, { owner: 'a', ids: [1, 2], take: 10 }, 'desc')).toEqual([
      { id: 2, word: 'two' },
      { id: 1, word: 'one' },
    ]);
    expect(await rows(handle.db, { owner: 'a', ids: undefined, take: 10 }, 'desc')).toEqual([
      { id: 4, word: null },
      { id: 2, word: 'two' },
      { id: 1, word: 'one' },
    ]);
  });

  it('builds lists longer than the cache keeps each time, with the same answer', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    expect(await rows(handle.db, { owner: 'a', ids, take: 10 })).toEqual([
      { id: 1, word: 'one' },
      { id: 2, word: 'two' },
      { id: 4, word: null },
    ]);
  });

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into t (id, owner, word) values (5, 'c', 'five')`.execute(trx);
      expect(await rows(trx, { owner: 'c', ids: undefined, take: 10 })).toEqual([{ id: 5, word: 'five' }]);
    });
  });

  it('refuses a builder that computes on a parameter instead of passing it through', async () => {
    const wrong = preparedQuery((db, p: { owner: string; limit: number }) =>
      db
        .selectFrom(sql<{ id: number; owner: string }>`t`.as('t'))
        .select('id')
        .where('owner', '=', p.owner)
        .limit(p.limit + 1),
    );
    await expect(wrong(handle.db, { owner: 'a', limit: 1 })).rejects.toThrow(/limit did not reach the SQL/);
  });
});
