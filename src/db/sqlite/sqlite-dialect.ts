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
import { GroupCommitDriver, type Connections } from './group-commit-driver.js';

/** Kysely's SQLite dialect with our driver (group commit, a read connection); the rest is Kysely's own. */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(private readonly open: () => Connections) {}

  createDriver(): Driver {
    return new GroupCommitDriver(this.open);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
