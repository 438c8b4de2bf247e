/*
 * The offline outbox's rules, apart from IndexedDB and the page: entries (captures and actions on
 * items) are sent one at a time in the order they were made, each removed only once the server has
 * it, and the first failure stops the run (the rest wait for the next one, so nothing is sent out
 * of order or lost). A conflict (the item changed or went meanwhile) is not a failure: that entry is
 * dropped, reported, and the run goes on. Every capture carries a client id the server saves once,
 * and every action the item's version it was made on, so an entry sent twice (a crash between
 * sending and removing) changes nothing twice (decision 0085).
 */

/** What the outbox keeps of a capture made offline: its form fields, and when it was made. */
export interface QueuedCapture {
  client_id: string;
  text: string;
  /** Milliseconds since the epoch: the order of the replay, and the time the text's dates are read at. */
  at: number;
  /** The signed-in user who typed it (the page's data-user); absent in entries kept before owners were. */
  owner?: string;
  type?: string;
  project_id?: string;
  /** Ranges of the text whose quick-add reading was refused (decision 0098). */
  literal?: string;
}

/** An action on an item taken offline (tick, date, move, archive, delete): the form it would have sent. */
export interface QueuedAction {
  id: string;
  item_id: string;
  /** The item's title, for the row and the messages. */
  name: string;
  /** toggle, due, move, archive, unarchive or delete: the last part of `url`. */
  action: string;
  url: string;
  /** The form's fields but its token (the page's own is sent at replay). */
  fields: [string, string][];
  /** The item's version the action was made on (its row's data-version); null when the row had none. */
  version: string | null;
  at: number;
  /** The signed-in user who took it (the page's data-user). */
  owner?: string;
}

export type OutboxEntry = { kind: 'capture'; entry: QueuedCapture; at: number } | { kind: 'action'; entry: QueuedAction; at: number };

/** Thrown by `send` for an entry the server refused for good (the item changed or is gone): dropped and reported. */
export class OutboxConflict extends Error {
  constructor(readonly said: string) {
    super(said);
  }
}

/** Where the entries live and how one is sent: IndexedDB and fetch in the page, plain functions in tests. */
export interface OutboxPorts<Entry, Answer = string> {
  list(): Promise<Entry[]>;
  /** Resolves to the server's answer; rejects when it was not saved (OutboxConflict: never will be). */
  send(entry: Entry): Promise<Answer>;
  remove(entry: Entry): Promise<void>;
}

export interface ReplayResult<Entry = unknown, Answer = string> {
  sent: number;
  /** The answer to the last entry sent; null when none was sent. */
  lastAnswer: Answer | null;
  /** Whether a send failed, leaving that entry and the later ones waiting. */
  stopped: boolean;
  /** The entries dropped as conflicts, with what the server said. */
  conflicts: { entry: Entry; said: string }[];
}

/**
 * The entries of the signed-in user: a browser shared by two accounts keeps one outbox, and what
 * one of them queued must never be sent with the other's session. Entries kept before entries had
 * an owner (offline captures of the third wave) go with whoever is signed in, as they always did.
 */
export function ownedBy<Entry extends { owner?: string }>(entries: readonly Entry[], user: string | null): Entry[] {
  if (user === null) return [];
  return entries.filter((entry) => entry.owner === undefined || entry.owner === user);
}

/** The entries oldest first, as they were made. */
export function inTypedOrder<Entry extends { at: number }>(entries: readonly Entry[]): Entry[] {
  return [...entries].sort((a, b) => a.at - b.at);
}

/** Sends every waiting entry in order, removing each once sent; stops at the first failure. */
export async function replayOutbox<Entry extends { at: number }, Answer = string>(ports: OutboxPorts<Entry, Answer>): Promise<ReplayResult<Entry, Answer>> {
  const entries = inTypedOrder(await ports.list());
  let lastAnswer: Answer | null = null;
  let sent = 0;
  const conflicts: { entry: Entry; said: string }[] = [];
  for (const entry of entries) {
    try {
      lastAnswer = await ports.send(entry);
      await ports.remove(entry);
    } catch (error) {
      if (!(error instanceof OutboxConflict)) return { sent, lastAnswer, stopped: true, conflicts };
      try {
        await ports.remove(entry);
      } catch {
        return { sent, lastAnswer, stopped: true, conflicts };
      }
      conflicts.push({ entry, said: error.said });
      continue;
    }
    sent += 1;
  }
  return { sent, lastAnswer, stopped: false, conflicts };
}

/**
 * A replay that runs once at a time: a call while one runs (the browser back online twice, the
 * page loading as it comes online) is dropped, and resolves to null.
 */
export function singleReplay<Entry extends { at: number }, Answer = string>(
  ports: OutboxPorts<Entry, Answer>,
): () => Promise<ReplayResult<Entry, Answer> | null> {
  let running = false;
  return async () => {
    if (running) return null;
    running = true;
    try {
      return await replayOutbox(ports);
    } finally {
      running = false;
    }
  };
}

/** The capture form's fields for one waiting capture: every field it kept, its time as `typed_at`. */
export function captureFormData(entry: QueuedCapture, csrf: string, returnTo: string): URLSearchParams {
  const data = new URLSearchParams();
  data.append('_csrf', csrf);
  data.append('return', returnTo);
  for (const [key, value] of Object.entries(entry)) if (key !== 'at' && value !== undefined) data.append(key, String(value));
  data.append('typed_at', new Date(entry.at).toISOString());
  return data;
}

/** An action's form for its replay: the page's token, its fields, the version it was made on (or the item's since, after an earlier entry). */
export function actionFormData(entry: QueuedAction, csrf: string, version: string | null): URLSearchParams {
  const data = new URLSearchParams();
  data.append('_csrf', csrf);
  for (const [key, value] of entry.fields) if (key !== '_csrf' && key !== 'version') data.append(key, value);
  if (version) data.append('version', version);
  return data;
}

const ACTION_WORDS: Record<string, string> = {
  toggle: 'tick',
  due: 'new date',
  move: 'move',
  archive: 'archive',
  unarchive: 'unarchive',
  delete: 'delete',
};

/** What an action is called in the messages ("tick", "move"…). */
export const actionWord = (action: string): string => ACTION_WORDS[action] ?? 'change';

/** What the banner says about what waits ('' when nothing does). */
export function waitingMessage(count: number): string {
  return count === 0 ? '' : `${count} waiting to be saved: they are sent when the connection is back.`;
}

/** The message of an action dropped as a conflict. */
export function conflictMessage(entry: QueuedAction, said: string): string {
  return `Your ${actionWord(entry.action)} of “${entry.name}”, made offline, was not applied: ${said}`;
}
