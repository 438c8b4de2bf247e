import { watchKeys, type KeyWatchDeps } from './key-watch.js';
import type { Wakeup, WakeupListener, WakeupSource } from './wakeups.js';

/** One open stream as the hub sees it. */
export interface Watcher {
  readonly userId: string;
  /** The stream's API key; null for a web session (ended with its session, not here). */
  readonly keyId: string | null;
  /** When the stream's key expires (null: never, or a web session). */
  readonly keyExpiresAt: string | null;
  /** Read the feed: a change of this user was committed (or wake-ups may have been lost). */
  wake(): void;
  /** The stream's key is gone, or the server is stopping. */
  end(): void;
}

/** Wake-ups between the processes of a cluster (the primary relays them; src/cluster). */
export interface WakeupRelay {
  publish(wakeups: readonly Wakeup[]): void;
  subscribe(listener: WakeupListener): () => void;
}

export interface LiveHub {
  /** Registers a stream; the returned function removes it. */
  add(watcher: Watcher): () => void;
  /** Ends every stream (shutdown). */
  endAll(): void;
  close(): Promise<void>;
}

/**
 * The open streams of this process, indexed by user and by key, so a wake-up touches only the
 * streams of its user and an idle stream costs nothing but its entry here. Wake-ups come from the
 * commit source and, when the source hears only this process (SQLite), from the other processes
 * through the relay, to which this process's own commits are published.
 */
export function createLiveHub(source: WakeupSource, keyChecks: Omit<KeyWatchDeps, 'foreignCommits'>, relay?: WakeupRelay): LiveHub {
  const byUser = new Map<string, Set<Watcher>>();
  const byKey = new Map<string, Set<Watcher>>();
  const unsubscribes: (() => void)[] = [];
  const endKey = (keyId: string) => {
    for (const w of [...(byKey.get(keyId) ?? [])]) w.end();
  };
  const keyWatch = watchKeys(
    {
      keys: () => new Map([...byKey].map(([keyId, set]) => [keyId, set.values().next().value?.keyExpiresAt ?? null])),
      endKey,
    },
    { ...keyChecks, foreignCommits: source.foreignCommits?.bind(source) },
  );

  const dispatch: WakeupListener = (wakeups) => {
    for (const wakeup of wakeups) {
      if (wakeup.kind === 'user') for (const w of byUser.get(wakeup.id) ?? []) w.wake();
      else if (wakeup.kind === 'key') endKey(wakeup.id);
      else for (const set of byUser.values()) for (const w of set) w.wake();
    }
  };

  const relaying = relay !== undefined && !source.crossProcess;
  let listening = false;
  const listen = () => {
    if (listening) return;
    listening = true;
    if (relaying) {
      unsubscribes.push(
        source.subscribe((wakeups) => {
          dispatch(wakeups);
          relay.publish(wakeups);
        }),
        relay.subscribe(dispatch),
      );
    } else {
      unsubscribes.push(source.subscribe(dispatch));
    }
  };
  // A cluster worker publishes its commits for the streams of the other workers from the start;
  // otherwise the source is listened to once a stream opens (PostgreSQL: the LISTEN connection).
  if (relaying) listen();

  const index = (map: Map<string, Set<Watcher>>, id: string, watcher: Watcher) => {
    let set = map.get(id);
    if (!set) map.set(id, (set = new Set()));
    set.add(watcher);
  };
  const unindex = (map: Map<string, Set<Watcher>>, id: string, watcher: Watcher) => {
    const set = map.get(id);
    if (!set) return;
    set.delete(watcher);
    if (set.size === 0) map.delete(id);
  };

  return {
    add(watcher) {
      listen();
      index(byUser, watcher.userId, watcher);
      if (watcher.keyId !== null) index(byKey, watcher.keyId, watcher);
      return () => {
        unindex(byUser, watcher.userId, watcher);
        if (watcher.keyId !== null) unindex(byKey, watcher.keyId, watcher);
      };
    },
    endAll() {
      for (const set of [...byUser.values()]) for (const w of [...set]) w.end();
    },
    async close() {
      keyWatch.stop();
      // The source belongs to the database handle (others may share it); leaving is enough.
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
      listening = false;
    },
  };
}
