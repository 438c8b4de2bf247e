import type { Logger } from 'pino';
import { listenerSet, parseWakeup, type CommitWakeups, type Wakeup, type WakeupSource } from './wakeups.js';

/*
 * PostgreSQL: every process's commits, heard through LISTEN cin_changes (the triggers of the
 * migration 2026-11-27-0501-live-changes notify it at commit). One connection per process, opened
 * when the first stream subscribes, outside the pool so it never holds a pooled client. When it
 * breaks, it reconnects (bounded backoff) and then asks every stream to read its feed once:
 * notifications sent while it was away are lost, the changes are not.
 */

const CHANNEL = 'cin_changes';
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

interface ListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
  removeAllListeners(): unknown;
}

export interface PostgresWakeupOptions {
  url: string;
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** Tests: a client factory (pg.Client by default). */
  newClient?: (url: string) => Promise<ListenClient>;
}

const pgClient = async (url: string): Promise<ListenClient> => {
  // Loaded on first use, like the pool: a SQLite deployment never loads pg.
  const { default: pg } = await import('pg');
  return new pg.Client({ connectionString: url });
};

/** The port's PostgreSQL side: the database tells every process, so no hook runs at commit. */
export function postgresCommitWakeups(options: PostgresWakeupOptions): CommitWakeups {
  return { source: listenForCommits(options) };
}

/** The LISTEN connection, opened for the first subscriber and closed after the last. */
function listenForCommits(options: PostgresWakeupOptions): WakeupSource {
  const listeners = listenerSet();
  const newClient = options.newClient ?? pgClient;
  let client: ListenClient | undefined;
  let connecting = false;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const onNotification = (message: { channel: string; payload?: string }) => {
    if (message.channel !== CHANNEL || message.payload === undefined) return;
    const wakeup = parseWakeup(message.payload);
    if (wakeup) listeners.emit([wakeup]);
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer || listeners.size === 0) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  const lost = (current: ListenClient, error?: Error) => {
    if (client !== current) return;
    client = undefined;
    current.removeAllListeners();
    current.on('error', () => undefined);
    void current.end().catch(() => undefined);
    if (!closed) options.logger?.warn({ err: error }, 'live changes: the LISTEN connection broke; reconnecting');
    scheduleReconnect();
  };

  async function connect(): Promise<void> {
    if (closed || client || connecting) return;
    connecting = true;
    let next: ListenClient | undefined;
    try {
      next = await newClient(options.url);
      const current = next;
      current.on('error', (error) => lost(current, error));
      current.on('end', () => lost(current));
      current.on('notification', onNotification);
      await current.connect();
      await current.query(`listen ${CHANNEL}`);
      if (closed || listeners.size === 0) {
        current.removeAllListeners();
        current.on('error', () => undefined);
        await current.end();
        return;
      }
      client = current;
      retryMs = RETRY_MIN_MS;
      // Whatever was committed while no connection listened (before the first LISTEN too: a stream
      // reads its feed when it opens, possibly before this) is read now.
      listeners.emit([{ kind: 'resync' } satisfies Wakeup]);
    } catch (error) {
      next?.removeAllListeners();
      next?.on('error', () => undefined);
      void next?.end().catch(() => undefined);
      options.logger?.warn({ err: error }, 'live changes: could not LISTEN; retrying');
      scheduleReconnect();
    } finally {
      connecting = false;
    }
  }

  /** No one listens any more: the connection goes (the next subscriber opens another). */
  async function disconnect(): Promise<void> {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    const current = client;
    client = undefined;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => undefined);
      await current.end().catch(() => undefined);
    }
  }

  return {
    crossProcess: true,
    subscribe(listener) {
      const unsubscribe = listeners.add(listener);
      void connect();
      return () => {
        unsubscribe();
        if (listeners.size === 0) void disconnect();
      };
    },
    async close() {
      closed = true;
      await disconnect();
    },
  };
}
