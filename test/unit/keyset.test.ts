// The driver this Node runs (decision 0070): better-sqlite3 12 itself aborts on Node 22 and 24.
import Database from '../../src/db/sqlite/sqlite-driver.js';
import { Kysely, PostgresAdapter, DummyDriver, PostgresIntrospector, PostgresQueryCompiler, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { afterKeyset } from '../../src/db/keyset.js';

interface T {
  rows: { k: string; id: string };
}

describe('afterKeyset', () => {
  it('pages through ties on the key in both directions, never skipping or repeating a row', async () => {
    const db = new Kysely<T>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      await db.schema.createTable('rows').addColumn('k', 'text').addColumn('id', 'text').execute();
      const all = ['a', 'b', 'b', 'b', 'c', 'd', 'd'].map((k, i) => ({ k, id: `id${i}` }));
      await db.insertInto('rows').values(all).execute();
      for (const dir of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let after: { k: string; id: string } | undefined;
        for (let guard = 0; guard < 10; guard += 1) {
          const page = await db
            .selectFrom('rows')
            .selectAll()
            .$if(after !== undefined, (q) => q.where((eb) => afterKeyset(eb, 'k', 'id', dir, after!.k, after!.id)))
            .orderBy('k', dir)
            .orderBy('id', dir)
            .limit(2)
            .execute();
          if (page.length === 0) break;
          seen.push(...page.map((r) => r.id));
          after = page.at(-1);
        }
        const expected = [...all].sort((x, y) => (x.k === y.k ? x.id.localeCompare(y.id) : x.k.localeCompare(y.k))).map((r) => r.id);
        expect(seen).toEqual(dir === 'asc' ? expected : expected.reverse());
      }
    } finally {
      await db.destroy();
    }
  });

  it("bounds the key as a plain range too, so PostgreSQL's index scan starts at the cursor", () => {
    const db = new Kysely<T>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const desc = db
      .selectFrom('rows')
      .selectAll()
      .where((eb) => afterKeyset(eb, 'k', 'id', 'desc', 'b', 'id2'))
      .compile().sql;
    expect(desc).toMatch(/"k" <= \$1 and \("k" < \$2 or \("k" = \$3 and "id" < \$4\)\)/);
    const asc = db
      .selectFrom('rows')
      .selectAll()
      .where((eb) => afterKeyset(eb, 'k', 'id', 'asc', 'b', 'id2'))
      .compile().sql;
    expect(asc).toMatch(/"k" >= \$1 and \("k" > \$2 or \("k" = \$3 and "id" > \$4\)\)/);
  });
});
