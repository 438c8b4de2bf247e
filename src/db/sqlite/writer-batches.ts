import type SQLite from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { newBatch, type Batch } from './commit-batch.js';
import { Mutex } from './mutex.js';
import type { ReadSnapshot } from './read-snapshot.js';

/** How long a BEGIN keeps trying while another process holds the write lock. */
const BEGIN_TIMEOUT_MS = 5_000;
/** Between two tries of BEGIN: short, so a waiting process gets the next turn. */
const BEGIN_RETRY_MS = 1;
/** Units sharing one commit at most: bounds how long the first of them waits for its answer. */
export const MAX_UNITS_PER_COMMIT = 64;

const isBusy = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

export interface BatchHooks {
  /** Ended before each commit, so reads after it see it (none on `:memory:`). */
  snapshot?: ReadSnapshot | undefined;
  /** Runs in every transaction just before it commits (the search index queue, the live wake-ups). */
  beforeCommit?: (() => void) | undefined;
  /** Told after each commit how many units it carried. */
  onCommit?: ((units: number) => void) | undefined;
}

/**
 * The writer's shared transaction, as group-commit-driver.ts describes it: units take the writer
 * one at a time (`enter`, `leave`), the first opens the transaction, and it commits on the next
 * turn of the event loop with no unit running or waiting, or after MAX_UNITS_PER_COMMIT units.
 */
export class WriterBatches {
  readonly #writer: SQLite.Database;
  readonly #begin: SQLite.Statement;
  readonly #commit: SQLite.Statement;
  readonly #rollback: SQLite.Statement;
  readonly #snapshot: ReadSnapshot | undefined;
  readonly #beforeCommit: () => void;
  readonly #onCommit: (units: number) => void;
  readonly #lock = new Mutex();
  #batch: Batch | undefined;
  #commitScheduled = false;
  /** Set by a commit until the event loop turns: the next BEGIN waits for that turn (see #beginBatch). */
  #committedThisTurn = false;

  constructor(writer: SQLite.Database, hooks: BatchHooks) {
    this.#writer = writer;
    this.#begin = writer.prepare('begin immediate');
    this.#commit = writer.prepare('commit');
    this.#rollback = writer.prepare('rollback');
    this.#snapshot = hooks.snapshot;
    this.#beforeCommit = hooks.beforeCommit ?? (() => undefined);
    this.#onCommit = hooks.onCommit ?? (() => undefined);
  }

  /** Takes the writer for one unit, opening the shared transaction if none is open. */
  async enter(): Promise<void> {
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
  leave(options: { awaitCommit?: boolean } = {}): Promise<void> | undefined {
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

  /** Commits what is open once no unit holds the writer, then runs `closeConnections` before any unit can begin again. */
  async close(closeConnections: () => void): Promise<void> {
    await this.#lock.lock();
    try {
      if (this.#batch) this.#commitBatch();
      closeConnections();
    } finally {
      this.#lock.unlock();
    }
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
