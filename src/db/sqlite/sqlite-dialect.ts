import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';
import { offerDirectQueries } from '../direct-queries.js';
import { GroupCommitDriver, type Connections } from './group-commit-driver.js';
import { offerSyncUnits } from './sync-units.js';

/**
 * Kysely's SQLite dialect with our driver (group commit, a read connection); the rest is Kysely's
 * own. With `direct`, reads outside a transaction may skip Kysely's executor (direct-queries.ts);
 * off when Kysely must see every query (its query log).
 */
export class GroupCommitSqliteDialect implements Dialect {
  #driver: GroupCommitDriver | undefined;

  constructor(
    private readonly open: () => Connections,
    private readonly direct: boolean,
  ) {}

  createDriver(): Driver {
    this.#driver = new GroupCommitDriver(this.open);
    return this.#driver;
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    const adapter = new SqliteAdapter();
    // Kysely makes the driver first, then the adapter, once per instance.
    const driver = this.#driver;
    if (this.direct && driver) {
      offerDirectQueries(adapter, (query) => driver.readNow(query)?.rows);
      offerSyncUnits(adapter, (work) => driver.runUnit(work));
    }
    return adapter;
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
