import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type { GroupCommitDriver } from './group-commit-driver.js';

/** What Kysely holds between acquireConnection and releaseConnection: reused, one per caller at a time. */
export class Lease implements DatabaseConnection {
  /** Inside beginTransaction … commit/rollback: every statement runs on the writer. */
  inUnit = false;
  /** While in a unit, with a hold watch (development and tests): when it took the writer, and the stack that took it. */
  held: { since: number; stack: string } | undefined;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* this.driver.stream<R>(this, query);
  }
}
