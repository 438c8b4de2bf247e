/*
 * The offline outbox's rules, apart from IndexedDB and the page: entries are sent one at a time in
 * the order they were made, each removed only once the server has it, and the first failure stops
 * the run (the rest wait for the next one, so nothing is sent out of order or lost). Every entry
 * carries a client id the server saves once, so an entry sent twice (a crash between sending and
 * removing) is still saved once.
 */

/** What the outbox keeps of a capture made offline: its form fields, and when it was made. */
export interface QueuedCapture {
  client_id: string;
  text: string;
  /** Milliseconds since the epoch: the order of the replay. */
  at: number;
  type?: string;
  project_id?: string;
}

/** Where the entries live and how one is sent: IndexedDB and fetch in the page, plain functions in tests. */
export interface OutboxPorts<Entry> {
  list(): Promise<Entry[]>;
  /** Resolves to the server's answer (the page the form leads to); rejects when it was not saved. */
  send(entry: Entry): Promise<string>;
  remove(entry: Entry): Promise<void>;
}

export interface ReplayResult {
  sent: number;
  /** The answer to the last entry sent, whose lists replace the page's; null when none was sent. */
  lastAnswer: string | null;
  /** Whether a send failed, leaving that entry and the later ones waiting. */
  stopped: boolean;
}

/** The entries oldest first, as they were typed: the Inbox then lists them as if saved at the time. */
export function inTypedOrder<Entry extends { at: number }>(entries: readonly Entry[]): Entry[] {
  return [...entries].sort((a, b) => a.at - b.at);
}

/** Sends every waiting entry in order, removing each once sent; stops at the first failure. */
export async function replayOutbox<Entry extends { at: number }>(ports: OutboxPorts<Entry>): Promise<ReplayResult> {
  const entries = inTypedOrder(await ports.list());
  let lastAnswer: string | null = null;
  let sent = 0;
  for (const entry of entries) {
    try {
      lastAnswer = await ports.send(entry);
      await ports.remove(entry);
    } catch {
      return { sent, lastAnswer, stopped: true };
    }
    sent += 1;
  }
  return { sent, lastAnswer, stopped: false };
}

/**
 * A replay that runs once at a time: a call while one runs (the browser back online twice, the
 * page loading as it comes online) is dropped, and resolves to null.
 */
export function singleReplay<Entry extends { at: number }>(ports: OutboxPorts<Entry>): () => Promise<ReplayResult | null> {
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

/** The capture form's fields for one waiting capture: every field it kept but its time. */
export function captureFormData(entry: QueuedCapture, csrf: string, returnTo: string): URLSearchParams {
  const data = new URLSearchParams();
  data.append('_csrf', csrf);
  data.append('return', returnTo);
  for (const [key, value] of Object.entries(entry)) if (key !== 'at' && value !== undefined) data.append(key, String(value));
  return data;
}

/** What the capture box says about the waiting captures ('' when none wait). */
export function waitingMessage(count: number): string {
  return count === 0 ? '' : `${count} waiting to be saved: they are sent when the connection is back.`;
}
