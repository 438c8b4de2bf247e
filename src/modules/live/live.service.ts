import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { Change, EventsService } from '../events/events.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { LiveHub } from './live-hub.js';
import type { StreamRegistry } from './stream-registry.js';

/** Where a stream's changes go: the SSE response (live.routes.ts) or a test's collector. */
export interface ChangeSink {
  /** Commits the response as a stream; errors before it are answered as ordinary errors. */
  start(): void;
  /** Resolves once the change is written (after the socket drained: back-pressure). */
  send(change: Change): Promise<void>;
  end(): void;
  /** Called once when the connection closes, from either side. */
  onClose(callback: () => void): void;
}

export interface LiveOptions {
  /** The contract: at most 10 open streams a user; the next is 429 too_many_streams. */
  maxStreamsPerUser: number;
  /** The keep-alive comment's interval (the contract: 15 s; tests shorten it). */
  keepAliveMs: number;
  /** How often a process with open streams renews its row in live_processes (stream-registry.ts). */
  processHeartbeatMs: number;
}

export const DEFAULT_LIVE: LiveOptions = { maxStreamsPerUser: 10, keepAliveMs: 15_000, processHeartbeatMs: 20_000 };

export interface LiveService {
  readonly keepAliveMs: number;
  /**
   * Opens a stream of the user's changes after `lastEventId`, else after `cursor`, else after the
   * newest change. Throws (400, 410, 429) before the stream starts; afterwards a failure ends it.
   */
  open(user: AuthUser, from: { cursor?: string | undefined; lastEventId?: string | undefined }, sink: ChangeSink): Promise<void>;
  /** Ends every open stream (shutdown: their clients reconnect to another process). */
  endAll(): void;
  close(): Promise<void>;
}

/** Changes read per query; a wake-up reads on while more are ready, a few pages per event-loop turn. */
const PAGE = 100;
const PAGES_PER_TURN = 5;
/** PostgreSQL: a change held back by an older running transaction is looked for again, backing off. */
const HELD_BACK_FIRST_MS = 25;
const HELD_BACK_MAX_MS = 1_000;
const HELD_BACK_TRIES = 60;

export function createLiveService(deps: { events: EventsService; hub: LiveHub; registry: StreamRegistry; logger: Logger; options: LiveOptions }): LiveService {
  const { events, hub, registry, logger, options } = deps;

  /** A stream after `start` (undefined: after the newest change when it starts); `ended` runs once when it stops. */
  function follow(user: AuthUser, start: string | undefined, sink: ChangeSink, ended: () => void) {
    let cursor = start ?? '';
    let reading = false;
    let dirty = false;
    let closed = false;
    let heldBackTries = 0;
    let retry: NodeJS.Timeout | undefined;

    const stop = () => {
      if (closed) return false;
      closed = true;
      if (retry) clearTimeout(retry);
      remove();
      ended();
      return true;
    };
    const watcher = {
      userId: user.id,
      keyId: user.keyId,
      keyExpiresAt: user.keyExpiresAt ?? null,
      wake() {
        if (closed) return;
        if (reading) dirty = true;
        else void run();
      },
      end() {
        if (stop()) sink.end();
      },
    };
    const remove = hub.add(watcher);
    sink.onClose(stop);

    const deliver = async (changes: readonly Change[], next: string) => {
      for (const change of changes) {
        if (closed) return;
        await sink.send(change);
      }
      cursor = next;
      if (changes.length > 0) heldBackTries = 0;
    };

    /** Reads and sends until the feed is drained; wake-ups meanwhile make it read again. */
    async function run(): Promise<void> {
      reading = true;
      try {
        for (let pages = 0; pages < PAGES_PER_TURN && !closed; pages += 1) {
          dirty = false;
          const page = await events.changes(user.id, { cursor, limit: PAGE });
          await deliver(page.changes, page.next_cursor);
          if (page.has_more) dirty = true;
          if (dirty) continue;
          if (heldBackTries < HELD_BACK_TRIES && (await events.heldBack(user.id, cursor)) && !closed) {
            const delay = Math.min(HELD_BACK_FIRST_MS * 2 ** heldBackTries, HELD_BACK_MAX_MS);
            heldBackTries += 1;
            retry = setTimeout(() => watcher.wake(), delay);
            retry.unref();
          }
          break;
        }
      } catch (error) {
        logger.warn({ err: error, userId: user.id }, 'live changes: reading the feed failed; ending the stream');
        watcher.end();
      } finally {
        reading = false;
      }
      if (dirty && !closed) setImmediate(() => watcher.wake());
    }

    return {
      async first(): Promise<void> {
        reading = true;
        try {
          // Registered before this read: a commit meanwhile makes it read again (dirty), none is missed.
          if (start === undefined) cursor = await events.tail(user.id);
          // The first read answers a bad or expired cursor as an error, before the stream starts.
          const page = await events.changes(user.id, { cursor, limit: PAGE });
          if (closed) return;
          sink.start();
          await deliver(page.changes, page.next_cursor);
          if (page.has_more) dirty = true;
        } catch (error) {
          stop();
          throw error;
        } finally {
          reading = false;
        }
        if (dirty && !closed) setImmediate(() => watcher.wake());
      },
    };
  }

  return {
    keepAliveMs: options.keepAliveMs,
    async open(user, from, sink) {
      // Counted in every process (the database), before anything is read.
      const streamId = await registry.open(user.id, options.maxStreamsPerUser);
      if (streamId === null) {
        throw new AppError('too_many_streams', `at most ${options.maxStreamsPerUser} change streams may be open at once; close one first`);
      }
      await follow(user, from.lastEventId ?? from.cursor, sink, () => registry.close(streamId)).first();
      // A stream has no response log line of its own (it never completes as a reply): this is its trace.
      logger.info({ userId: user.id, keyId: user.keyId }, 'change stream opened');
    },
    endAll: () => hub.endAll(),
    async close() {
      await hub.close();
      await registry.closeAll();
    },
  };
}
