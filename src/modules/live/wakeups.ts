import type SQLite from 'better-sqlite3';
/**
 * What a committed write tells the open change streams (issue 32): "read the feed of this user", or
 * "this key is gone" (revoked or deleted). A wake-up carries no data: the change feed stays the
 * only source, so a wake-up that arrives twice costs a read and one that is lost is recovered by the
 * next read from the stream's cursor (`resync`: read every stream's feed once, after a reconnect).
 */
export type Wakeup = { kind: 'user'; id: string } | { kind: 'key'; id: string } | { kind: 'resync' };

export type WakeupListener = (wakeups: readonly Wakeup[]) => void;

/** Where a process learns of commits: its own writer (SQLite) or every process's (PostgreSQL NOTIFY). */
export interface WakeupSource {
  /** True when the source already hears other processes' commits (no relay between processes needed). */
  readonly crossProcess: boolean;
  /** Starts listening on the first subscriber; the returned function unsubscribes. */
  subscribe(listener: WakeupListener): () => void;
  /**
   * SQLite: true when another connection (another program on the file) committed since the last
   * call, whose commits this source cannot hear. Absent where the source hears every commit.
   */
  foreignCommits?(): boolean;
  /** Stops listening for good (closes a connection the source opened). */
  close(): Promise<void>;
}

/** The payload of a notification or relay message: `u:<user id>` or `k:<key id>`. */
export function parseWakeup(payload: string): Wakeup | undefined {
  const id = payload.slice(2);
  if (id.length === 0 || id.length > 100) return undefined;
  if (payload.startsWith('u:')) return { kind: 'user', id };
  if (payload.startsWith('k:')) return { kind: 'key', id };
  return undefined;
}

/** Listeners of a source, each told of every batch; a listener that throws does not stop the others. */
export function listenerSet(): { add(listener: WakeupListener): () => void; emit(wakeups: readonly Wakeup[]): void; readonly size: number } {
  const listeners = new Set<WakeupListener>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(wakeups) {
      for (const listener of listeners) {
        try {
          listener(wakeups);
        } catch {
          // A stream's own failure ends that stream (live.service); it must not stop the others' wake-ups.
        }
      }
    },
    get size() {
      return listeners.size;
    },
  };
}

/**
 * The live streams' port to the database (decisions/0067): how this process hears of commits, one
 * implementation per dialect (`commit-wakeups.sqlite.ts`: TEMP triggers on the writer, handed over
 * at commit; `commit-wakeups.postgres.ts`: LISTEN to the NOTIFY of the live migrations' triggers),
 * chosen by `src/storage-ports.ts` as the database opens.
 */
export interface CommitWakeups {
  readonly source: WakeupSource;
  /** SQLite: made once per writer connection, run just before each commit. Absent where the database tells every process (NOTIFY). */
  readonly beforeCommit?: (writer: SQLite.Database) => () => void;
}
