import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';

/*
 * Ends the streams of a key that expired or was revoked where this process's wake-ups cannot hear
 * it. Revocations reach the streams through the wake-ups (in-process, the cluster relay,
 * PostgreSQL's NOTIFY), but on SQLite another program on the same file (the admin CLI) commits
 * without them; and an expiry is no commit at all. Once a second, while streams of keys are open:
 * keys past their expiry (the clock, no query) end; and on SQLite, only when another connection
 * has committed since the last look (PRAGMA data_version, no table read), the open keys still
 * valid are read once. An idle stream still costs no database query.
 */

const INTERVAL_MS = 1_000;

export interface KeyStreams {
  /** The keys with open streams, and when each expires (null: never). */
  keys(): ReadonlyMap<string, string | null>;
  /** Ends every stream of the key. */
  endKey(keyId: string): void;
}

export interface KeyWatchDeps {
  clock: Clock;
  /** True when another connection committed since the last call (SQLite); absent: never needed. */
  foreignCommits?: (() => boolean) | undefined;
  /** Of these keys, those neither revoked nor deleted. */
  liveKeys: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
  logger: Logger;
}

export function watchKeys(streams: KeyStreams, deps: KeyWatchDeps): { stop(): void } {
  let checking = false;

  async function look(): Promise<void> {
    const keys = streams.keys();
    if (keys.size === 0) return;
    const now = toTimestamp(deps.clock.now());
    for (const [keyId, expiresAt] of keys) if (expiresAt !== null && now >= expiresAt) streams.endKey(keyId);
    if (!deps.foreignCommits?.()) return;
    const ids = [...streams.keys().keys()];
    if (ids.length === 0) return;
    const live = await deps.liveKeys(ids);
    for (const keyId of ids) if (!live.has(keyId)) streams.endKey(keyId);
  }

  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    look()
      .catch((err: unknown) => deps.logger.warn({ err }, 'live changes: could not check the open streams’ keys'))
      .finally(() => {
        checking = false;
      });
  }, INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
