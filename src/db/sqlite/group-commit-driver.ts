import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { checkHold, markHeld, type HoldWatch } from './hold-watch.js';
import { Lease } from './lease.js';
import { ReadSnapshot } from './read-snapshot.js';
import { runStatement } from './row-objects.js';
import { StatementCache } from './statement-cache.js';
import { StatementRouter } from './statement-router.js';
import type { RunInUnit } from './sync-units.js';
import { WriterBatches } from './writer-batches.js';

const UNIT = CompiledQuery.raw('savepoint cin_unit');
const UNIT_DONE = CompiledQuery.raw('release cin_unit');
const UNIT_UNDO = CompiledQuery.raw('rollback to cin_unit');

export interface Connections {
  writer: SQLite.Database;
  /** A read-only connection to the same file; none for `:memory:`, where the writer reads too. */
  reader?: SQLite.Database;
  /** Runs in every transaction just before it commits (the search index queue). */
  beforeCommit?: () => void;
  /** Told after each commit how many units it carried (metrics, tests). */
  onCommit?: (units: number) => void;
  /** Development and tests: a unit that holds the writer longer than this is reported (see HoldWatch). */
  holdWatch?: HoldWatch;
}

/**
 * Kysely's driver for SQLite with group commit and a separate read connection.
 *
 * Every write transaction of this process (a "unit": Kysely's `db.transaction()`, or one write
 * statement outside a transaction) runs inside one shared SQLite transaction, in a savepoint of its
 * own, one unit after another. The shared transaction commits when no unit is running or waiting
 * (on the next turn of the event loop) or after MAX_UNITS_PER_COMMIT units, and each unit's caller
 * gets its answer only after that commit. One commit then writes the WAL frames of the pages that
 * many units touched once, and FTS5 writes one segment for all their documents instead of one per
 * document (most of a capture's cost). A unit that fails rolls back to its savepoint and leaves the
 * others alone; a failed commit fails every unit of the batch.
 *
 * Reads outside a transaction go to a read-only connection: WAL gives it the last committed state,
 * so it never sees a batch's uncommitted units and never waits for the writer. Which statements
 * write is learnt once per SQL text (statement-router.ts).
 *
 * The shared transaction and its commits are writer-batches.ts; the hold watch, hold-watch.ts.
 * Only Kysely's public Driver and DatabaseConnection interfaces are used.
 */
export class GroupCommitDriver implements Driver {
  readonly #open: () => Connections;
  #writer!: SQLite.Database;
  #statements!: StatementRouter;
  /** Between init and destroy: when the direct lane may run. */
  #serving = false;
  #reader: SQLite.Database | undefined;
  #snapshot: ReadSnapshot | undefined;
  #holdWatch: HoldWatch | undefined;
  #batches!: WriterBatches;
  readonly #free: Lease[] = [];

  constructor(open: () => Connections) {
    this.#open = open;
  }

  async init(): Promise<void> {
    const { writer, reader, beforeCommit, onCommit, holdWatch } = this.#open();
    this.#holdWatch = holdWatch;
    this.#writer = writer;
    this.#reader = reader;
    this.#statements = new StatementRouter(new StatementCache(writer), reader ? new StatementCache(reader) : undefined);
    if (reader) this.#snapshot = new ReadSnapshot(reader);
    this.#batches = new WriterBatches(writer, { snapshot: this.#snapshot, beforeCommit, onCommit });
    this.#serving = true;
  }

  /**
   * The direct lane (direct-queries.ts): a read outside any transaction, run at once on the reader
   * as `execute` runs one for a lease outside a unit. Undefined for a write, and before init or
   * after destroy, which Kysely's path handles.
   */
  readNow<R>(query: CompiledQuery): QueryResult<R> | undefined {
    return this.#serving ? this.#readOutsideUnit<R>(query) : undefined;
  }

  /** A unit whose statements run in one synchronous call (sync-units.ts); a unit like any other for the batch. */
  runUnit<T>(work: (run: RunInUnit) => T): Promise<T> | undefined {
    return this.#serving ? this.#unit(work) : undefined;
  }

  async #unit<T>(work: (run: RunInUnit) => T): Promise<T> {
    await this.#batches.enter();
    let result: T;
    try {
      this.#runOnWriter(UNIT);
      try {
        result = work(<R>(query: CompiledQuery<R>) => this.#runOnWriter<R>(query).rows);
      } catch (error) {
        if (this.#writer.inTransaction) {
          this.#runOnWriter(UNIT_UNDO);
          this.#runOnWriter(UNIT_DONE);
        }
        throw error;
      }
      this.#runOnWriter(UNIT_DONE);
    } catch (error) {
      void this.#batches.leave();
      throw error;
    }
    await this.#batches.leave({ awaitCommit: true });
    return result;
  }

  /** A read outside any unit, on the reader in the turn's snapshot; undefined when the statement writes. */
  #readOutsideUnit<R>(query: CompiledQuery): QueryResult<R> | undefined {
    const read = this.#statements.forRead(query.sql);
    if (!read) return undefined;
    this.#snapshot?.begin();
    return runStatement<R>(read, query.parameters);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#free.pop() ?? new Lease(this);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#free.push(connection as Lease);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    await this.#batches.enter();
    lease.inUnit = true;
    markHeld(lease, this.#holdWatch);
    try {
      await connection.executeQuery(UNIT);
    } catch (error) {
      lease.inUnit = false;
      void this.#batches.leave();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // If RELEASE fails the unit is still open and Kysely calls rollbackTransaction next.
    await connection.executeQuery(UNIT_DONE);
    lease.inUnit = false;
    checkHold(lease, this.#holdWatch);
    await this.#batches.leave({ awaitCommit: true });
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // Not in a unit: the unit was released and then its batch's commit failed; nothing to undo here.
    if (!lease.inUnit) return;
    try {
      if (this.#writer.inTransaction) {
        await connection.executeQuery(UNIT_UNDO);
        await connection.executeQuery(UNIT_DONE);
      }
    } finally {
      lease.inUnit = false;
      checkHold(lease, this.#holdWatch);
      void this.#batches.leave();
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async destroy(): Promise<void> {
    this.#serving = false;
    await this.#batches.close(() => {
      this.#snapshot?.end();
      this.#reader?.close();
      this.#writer.close();
    });
  }

  /** Runs a statement for a lease: in its unit on the writer, as a read on the reader, or as a write unit of its own. */
  execute<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      if (lease.inUnit) return Promise.resolve(this.#runOnWriter<R>(query));
      const read = this.#readOutsideUnit<R>(query);
      if (read) return Promise.resolve(read);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#writeAlone<R>(query);
  }

  async *stream<R>(lease: Lease, query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = lease.inUnit ? this.#statements.forWriter(query.sql) : this.#statements.forRead(query.sql);
    if (!statement?.reader) throw new Error('only reads can be streamed');
    if (!lease.inUnit) this.#snapshot?.begin();
    // Read whole before the first row is handed out: an iterator left open across turns would keep
    // the connection busy (better-sqlite3 runs nothing else on it meanwhile) and the turn's snapshot open.
    for (const row of statement.all(query.parameters)) yield { rows: [row as R] };
  }

  #runOnWriter<R>(query: CompiledQuery): QueryResult<R> {
    // SQLite ends the whole transaction on some errors (disk full, I/O); never fall back to autocommit.
    if (!this.#writer.inTransaction) throw new Error('the shared SQLite transaction was rolled back; this unit cannot continue');
    return runStatement<R>(this.#statements.forWriter(query.sql), query.parameters);
  }

  /** One write statement outside a transaction: a unit of its own, answered after its commit. */
  async #writeAlone<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    await this.#batches.enter();
    let result: QueryResult<R>;
    try {
      result = this.#runOnWriter<R>(query);
    } catch (error) {
      void this.#batches.leave();
      throw error;
    }
    await this.#batches.leave({ awaitCommit: true });
    return result;
  }
}

const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;
