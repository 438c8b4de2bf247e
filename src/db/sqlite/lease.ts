import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type { GroupCommitDriver } from './group-commit-driver.js';

/** What Kysely holds between acquireConnection and releaseConnection: reused, one per caller at a time. */
export class Lease implements DatabaseConnection {
  /** Inside beginTransaction … commit/rollback: every statement runs on the writer. */
  inUnit = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* this.driver.stream<R>(this, query);
  }
}
