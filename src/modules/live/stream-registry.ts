import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { countOpenStreams, deleteProcess, deleteProcessesSeenBefore, deleteStream, insertStream, markProcessSeen } from './stream-registry.repository.js';

/*
 * The open change streams of every process, in the database, so the contract's "at most 10 open
 * streams a user" holds across processes (WORKERS, several servers on one PostgreSQL) and not
 * per process. A stream costs a row while open: an insert and a count when it opens, a delete when
 * it closes; an idle stream costs nothing. A process renews its own row while it has streams
 * open; one not seen for three heartbeats (killed, never closed its streams) no longer counts and
 * is cleared by the next process that renews its own.
 */

/** A process not seen for this many heartbeats is gone. */
const MISSED_HEARTBEATS = 3;

export interface StreamRegistry {
  /** Counts a new stream of the user; null (and nothing kept) when `max` are open already. */
  open(userId: string, max: number): Promise<string | null>;
  /** Forgets a closed stream (in the background; a failure is logged and left to expire). */
  close(streamId: string): void;
  /** Forgets every stream of this process (shutdown), after the closes still under way. */
  closeAll(): Promise<void>;
}

export function createStreamRegistry(deps: { db: Db; clock: Clock; newId: IdGenerator; logger: Logger; heartbeatMs: number }): StreamRegistry {
  const { db, clock, logger, heartbeatMs } = deps;
  const goneAfterMs = MISSED_HEARTBEATS * heartbeatMs;
  const processId = deps.newId();
  const open = new Set<string>();
  const pending = new Set<Promise<void>>();
  let heartbeat: NodeJS.Timeout | undefined;

  const track = (work: Promise<void>) => {
    const settled = work
      .catch((err: unknown) => logger.warn({ err }, 'live changes: the stream registry could not be updated'))
      .finally(() => pending.delete(settled));
    pending.add(settled);
  };

  /** Marks this process seen; the heartbeat also clears processes gone (an open only needs the mark: the count skips them). */
  async function renew(sweep: boolean): Promise<void> {
    const now = clock.now();
    await markProcessSeen(db, processId, toTimestamp(now));
    if (!sweep) return;
    // Streams of processes gone without closing them go with their process row (cascade).
    await deleteProcessesSeenBefore(db, toTimestamp(new Date(now.getTime() - goneAfterMs)));
  }

  const beat = () => {
    if (open.size === 0) {
      clearInterval(heartbeat);
      heartbeat = undefined;
      return;
    }
    track(renew(true));
  };

  return {
    async open(userId, max) {
      await renew(false);
      const now = clock.now();
      const id = deps.newId();
      await insertStream(db, { id, userId, processId, openedAt: toTimestamp(now) });
      // Counted after this stream's own row is committed: of two opens racing for the last place,
      // the later count sees both, so the cap is never exceeded (both may be refused, rarely).
      if ((await countOpenStreams(db, userId, toTimestamp(new Date(now.getTime() - goneAfterMs)))) > max) {
        await deleteStream(db, id);
        return null;
      }
      open.add(id);
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
      return id;
    },
    close(streamId) {
      if (!open.delete(streamId)) return;
      track(deleteStream(db, streamId));
    },
    async closeAll() {
      clearInterval(heartbeat);
      heartbeat = undefined;
      open.clear();
      await Promise.all(pending);
      await deleteProcess(db, processId);
    },
  };
}
