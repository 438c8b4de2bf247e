import { PostgresAdapter, SqliteAdapter } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.js';

/*
 * The two places that reach past Kysely's documented API, pinned so that an upgrade that changes
 * them fails here rather than in production: `getExecutor()` is marked @internal.
 * - prepared-query.ts keys its compiled templates by `db.getExecutor().adapter`, assuming a
 *   transaction shares its database's adapter object (else every transaction would compile anew).
 * - the sync migration tells the dialects apart with `getExecutor().adapter instanceof SqliteAdapter`.
 * - direct-queries.ts keys each database's direct lane by that adapter, assuming each Kysely
 *   instance has its own (its dialect makes the driver, then the adapter, once per instance).
 */
let handles: DbHandle[] = [];
afterEach(async () => {
  for (const handle of handles) await handle.db.destroy();
  handles = [];
});

describe('the Kysely internals this code relies on', () => {
  it('getExecutor().adapter is the dialect adapter, and a transaction shares its database’s adapter object', async () => {
    const handle = createDb('sqlite::memory:');
    handles.push(handle);
    const { db } = handle;
    expect(typeof db.getExecutor).toBe('function');
    const adapter = db.getExecutor().adapter;
    expect(adapter).toBeInstanceOf(SqliteAdapter);
    expect(adapter).not.toBeInstanceOf(PostgresAdapter);
    await db.transaction().execute(async (trx) => {
      expect(trx.isTransaction).toBe(true);
      expect(trx.getExecutor().adapter).toBe(adapter);
    });
    expect(db.isTransaction).toBe(false);
  });

  it('each Kysely instance has an adapter of its own', () => {
    const one = createDb('sqlite::memory:');
    const two = createDb('sqlite::memory:');
    handles.push(one, two);
    expect(one.db.getExecutor().adapter).not.toBe(two.db.getExecutor().adapter);
  });
});
