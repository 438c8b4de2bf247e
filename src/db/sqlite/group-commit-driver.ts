import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { newBatch, type Batch } from './commit-batch.js';
import { Lease } from './lease.js';
import { Mutex } from './mutex.js';
import { ReadSnapshot } from './read-snapshot.js';
import { runStatement } from './row-objects.js';
import { StatementCache } from './statement-cache.js';
import { StatementRouter } from './statement-router.js';

/** How long a BEGIN keeps trying while another process holds the write lock. */
const BEGIN_TIMEOUT_MS = 5_000;
/** Between two tries of BEGIN: short, so a waiting process gets the next turn. */
const BEGIN_RETRY_MS = 1;
/** Units sharing one commit at most: bounds how long the first of them waits for its answer. */
export const MAX_UNITS_PER_COMMIT = 64;

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
 * Every write transaction of the process waits while one unit holds the writer, so a unit must
 * never await anything but its own statements: above all no network call inside
 * `db.transaction()` (decisions/0003). The watch makes a breach visible where it happens: a unit
 * held longer than `thresholdMs` is reported with the stack that began it.
 */
export interface HoldWatch {
  thresholdMs: number;
  report(heldMs: number, stack: string): void;
}

const isBusy = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

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
 * Only Kysely's public Driver and DatabaseConnection interfaces are used.
 */
export class GroupCommitDriver implements Driver {
  readonly #open: () => Connections;
  #writer!: SQLite.Database;
  #statements!: StatementRouter;
  /** Between init and destroy: when the direct lane may run. */
  #serving = false;
  #begin!: SQLite.Statement;
  #commit!: SQLite.Statement;
  #rollback!: SQLite.Statement;
  #reader: SQLite.Database | undefined;
  #snapshot: ReadSnapshot | undefined;
  #beforeCommit: () => void = () => undefined;
  #onCommit: (units: number) => void = () => undefined;
  #holdWatch: HoldWatch | undefined;
  readonly #lock = new Mutex();
  #batch: Batch | undefined;
  #commitScheduled = false;
  /** Set by a commit until the event loop turns: the next BEGIN waits for that turn (see #beginBatch). */
  #committedThisTurn = false;
  readonly #free: Lease[] = [];

  constructor(open: () => Connections) {
    this.#open = open;
  }

  async init(): Promise<void> {
    const { writer, reader, beforeCommit, onCommit, holdWatch } = this.#open();
    this.#holdWatch = holdWatch;
    this.#writer = writer;
    this.#reader = reader;
    if (beforeCommit) this.#beforeCommit = beforeCommit;
    if (onCommit) this.#onCommit = onCommit;
    this.#statements = new StatementRouter(new StatementCache(writer), reader ? new StatementCache(reader) : undefined);
    if (reader) this.#snapshot = new ReadSnapshot(reader);
    this.#begin = writer.prepare('begin immediate');
    this.#commit = writer.prepare('commit');
    this.#rollback = writer.prepare('rollback');
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
    await this.#enterUnit();
    lease.inUnit = true;
    // The stack is taken only when watching: it costs more than a unit's own statements.
    if (this.#holdWatch) lease.held = { since: performance.now(), stack: new Error('a transaction held the SQLite writer').stack ?? '' };
    try {
      await connection.executeQuery(UNIT);
    } catch (error) {
      lease.inUnit = false;
      void this.#leaveUnit();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // If RELEASE fails the unit is still open and Kysely calls rollbackTransaction next.
    await connection.executeQuery(UNIT_DONE);
    lease.inUnit = false;
    this.#checkHold(lease);
    await this.#leaveUnit({ awaitCommit: true });
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
      this.#checkHold(lease);
      void this.#leaveUnit();
    }
  }

  #checkHold(lease: Lease): void {
    const { held } = lease;
    lease.held = undefined;
    if (!held || !this.#holdWatch) return;
    const heldMs = performance.now() - held.since;
    if (heldMs > this.#holdWatch.thresholdMs) this.#holdWatch.report(heldMs, held.stack);
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
    await this.#lock.lock();
    try {
      if (this.#batch) this.#commitBatch();
      this.#snapshot?.end();
      this.#reader?.close();
      this.#writer.close();
    } finally {
      this.#lock.unlock();
    }
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
    await this.#enterUnit();
    let result: QueryResult<R>;
    try {
      result = this.#runOnWriter<R>(query);
    } catch (error) {
      void this.#leaveUnit();
      throw error;
    }
    await this.#leaveUnit({ awaitCommit: true });
    return result;
  }

  /** Takes the writer for one unit, opening the shared transaction if none is open. */
  async #enterUnit(): Promise<void> {
    await this.#lock.lock();
    try {
      if (this.#batch && this.#batch.units >= MAX_UNITS_PER_COMMIT) this.#commitBatch();
      if (!this.#batch) await this.#beginBatch();
    } catch (error) {
      this.#lock.unlock();
      throw error;
    }
  }

  /**
   * Gives the writer back. A unit that succeeded waits for the commit of its batch; after one that
   * failed, a batch whose transaction SQLite ended fails as a whole.
   */
  #leaveUnit(options: { awaitCommit?: boolean } = {}): Promise<void> | undefined {
    const batch = this.#batch;
    if (batch && !this.#writer.inTransaction) {
      this.#batch = undefined;
      batch.settle(new Error('SQLite rolled back the shared transaction after an error in another unit'));
    }
    if (batch && options.awaitCommit) batch.units += 1;
    this.#lock.unlock();
    this.#scheduleCommit();
    return options.awaitCommit ? (batch?.done ?? Promise.reject(new Error('no open transaction to commit'))) : undefined;
  }

  #scheduleCommit(): void {
    if (this.#commitScheduled || !this.#batch) return;
    this.#commitScheduled = true;
    // On the next turn: units of requests that arrived in this one join the batch first.
    setImmediate(() => void this.#commitWhenFree());
  }

  async #commitWhenFree(): Promise<void> {
    this.#commitScheduled = false;
    await this.#lock.lock();
    try {
      if (this.#batch) this.#commitBatch();
    } finally {
      this.#lock.unlock();
    }
  }

  /** BEGIN IMMEDIATE, retried every millisecond while another process writes, awaiting (never blocking the loop). */
  async #beginBatch(): Promise<void> {
    // Another process (or another connection of this one) waiting for the lock retries from a
    // timer; beginning again in the turn that committed would take the lock back before any timer
    // can run, every time, and starve it.
    if (this.#committedThisTurn) await new Promise((resolve) => setImmediate(resolve));
    const deadline = Date.now() + BEGIN_TIMEOUT_MS;
    for (;;) {
      try {
        this.#begin.run();
        this.#batch = newBatch();
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
        await sleep(BEGIN_RETRY_MS);
      }
    }
  }

  /** Commits the open batch (the lock is held) and settles every unit waiting on it. */
  #commitBatch(): void {
    const batch = this.#batch!;
    this.#batch = undefined;
    try {
      this.#beforeCommit();
      // Before the commit: reads after it see it, and its checkpoint finds no reader of ours on an old snapshot.
      this.#snapshot?.end();
      this.#commit.run();
      this.#committedThisTurn = true;
      setImmediate(() => (this.#committedThisTurn = false));
      batch.settle();
      this.#onCommit(batch.units);
    } catch (error) {
      if (this.#writer.inTransaction) {
        try {
          this.#rollback.run();
        } catch {
          // The commit's error is the one to report.
        }
      }
      batch.settle(error);
    }
  }
}

const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;
