import type SQLite from 'better-sqlite3';
import { listenerSet, type CommitWakeups, type Wakeup } from './wakeups.js';

/*
 * SQLite: the wake-ups of this process's own commits. TEMP triggers on the writer connection (they
 * exist for this connection only, so no other process or tool ever needs the function they call)
 * hand each new outbox event's user, and each revoked or deleted key, to a JavaScript function as
 * the statement runs: no query is added to the write path. The ids are held until the group
 * commit: the database layer runs `beforeCommit` just before COMMIT, which then runs synchronously,
 * so the wake-ups go out on the next turn, after the commit. A unit rolled back to its savepoint
 * leaves its ids behind: a wake-up too many only costs a read of the feed.
 * Other processes hear of these commits through the cluster's primary (src/cluster); what other
 * programs commit to the file (a key revoked with the admin CLI) is noticed by `foreignCommits`.
 */

const FUNCTION = 'cin_live_wakeup';

const TRIGGERS = [
  `create temp trigger if not exists cin_live_outbox after insert on main.outbox_events
     begin select ${FUNCTION}('u:' || new.user_id); end`,
  `create temp trigger if not exists cin_live_key_revoked after update of revoked_at on main.api_keys
     when new.revoked_at is not null and old.revoked_at is null
     begin select ${FUNCTION}('k:' || old.id); end`,
  `create temp trigger if not exists cin_live_key_deleted after delete on main.api_keys
     begin select ${FUNCTION}('k:' || old.id); end`,
];

/** The port's SQLite side: a source, and the hook that hands each commit's ids to it. */
export type SqliteCommitWakeups = Required<CommitWakeups>;

export function sqliteCommitWakeups(): SqliteCommitWakeups {
  const listeners = listenerSet();
  let pending = new Set<string>();
  let connection: SQLite.Database | undefined;
  let dataVersion: number | undefined;

  const flush = (payloads: Set<string>) => {
    const wakeups: Wakeup[] = [];
    for (const payload of payloads) {
      const id = payload.slice(2);
      wakeups.push(payload.startsWith('k:') ? { kind: 'key', id } : { kind: 'user', id });
    }
    listeners.emit(wakeups);
  };

  return {
    source: {
      crossProcess: false,
      subscribe: (listener) => listeners.add(listener),
      // PRAGMA data_version changes when a connection other than this one commits (the admin CLI,
      // another worker); the writer's own commits leave it as it was.
      foreignCommits() {
        if (!connection?.open) return false;
        const version = connection.pragma('data_version', { simple: true }) as number;
        const changed = version !== dataVersion;
        dataVersion = version;
        return changed;
      },
      close: async () => undefined,
    },
    beforeCommit(writer) {
      connection = writer;
      dataVersion = writer.pragma('data_version', { simple: true }) as number;
      writer.function(FUNCTION, { deterministic: false }, (payload: unknown) => {
        if (typeof payload === 'string') pending.add(payload);
        return null;
      });
      // Before the migrations have made the tables (a fresh database) the triggers cannot exist yet;
      // they are tried again before each commit until they do, which includes the migration's own.
      let installed = false;
      const install = () => {
        try {
          for (const trigger of TRIGGERS) writer.exec(trigger);
          installed = true;
        } catch {
          installed = false;
        }
      };
      install();
      return () => {
        if (!installed) install();
        if (pending.size === 0) return;
        const payloads = pending;
        pending = new Set();
        // The COMMIT runs synchronously right after this hook: the next turn comes after it.
        setImmediate(() => flush(payloads));
      };
    },
  };
}
