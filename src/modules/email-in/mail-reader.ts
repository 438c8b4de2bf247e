import { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { createLeasedLoop } from '../../lib/poll-loop.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EmailInMetrics } from '../metrics/metrics.js';
import { parseImapUrl, redactedImapUrl, type ImapTarget } from './imap-url.js';
import { handleMessage, type MessageHandlerDeps, type Verdict } from './message-handler.js';
import { releaseLease, takeLease } from './reader-lease.repository.js';
import type { ReaderSettings } from './reader-settings.js';

/*
 * The email-in reader: one process at a time (a lease in the database) keeps a connection to
 * EMAIL_IN_IMAP_URL, searches the mailbox for unread mail (and mail whose move was cut short), hands each message to message-handler.ts
 * and then moves it: to Processed once its item is committed, to Rejected (still unread) when it is
 * for nobody or cannot be read. Mail over a user's limits stays where it is, unread, and is tried
 * again after the window. Between scans it waits for IMAP IDLE's notice of new mail, or pollMs.
 * A lost connection is retried with back-off, logged once per outage. The lease is short and
 * renewed while reading (lib/poll-loop.ts), so a reader that dies is replaced within seconds.
 */

const LEASE_NAME = 'email-in-reader';
const PROCESSED = 'Processed';
const REJECTED = 'Rejected';
/** A keyword set with \Seen before the move to Processed, so an interrupted move is finished later. */
const CAPTURED = '$CaptureInboxCaptured';

export interface EmailInReader {
  start(): void;
  /** Stops reading, closes the connection and hands the lease back. */
  stop(): Promise<void>;
  /** True while this process holds the lease and is connected (for tests and logs). */
  readonly reading: boolean;
}

export interface EmailInReaderDeps extends MessageHandlerDeps {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  metrics: EmailInMetrics;
  imapUrl: string;
  settings: ReaderSettings;
}

interface Folders {
  processed: string;
  rejected: string;
}

export function createEmailInReader(deps: EmailInReaderDeps): EmailInReader {
  const { settings } = deps;
  const target: ImapTarget = parseImapUrl(deps.imapUrl);
  const log = deps.logger.child({ component: 'email-in', mailbox: redactedImapUrl(deps.imapUrl) });
  const owner = deps.newId();
  /** uid → when (Date.now) it may be tried again: mail over a limit, or whose handling failed. */
  const deferred = new Map<number, number>();
  let uidValidity: bigint | undefined;
  let running = false;
  let connected = false;
  let client: ImapFlow | undefined;
  let woken = false;
  let wake: (() => void) | undefined;
  let outage = false;
  /** True while a message is between being read and being moved: stop() lets it finish. */
  let handling = false;

  /** Wakes a pause now, or makes the next pause return at once. */
  function nudge(): void {
    woken = true;
    wake?.();
  }

  function pause(ms: number): Promise<void> {
    if (woken || !running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (wake === done) wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      wake = done;
    });
  }

  async function holdLease(): Promise<boolean> {
    const now = deps.clock.now();
    return takeLease(deps.db, {
      name: LEASE_NAME,
      owner,
      now: toTimestamp(now),
      until: toTimestamp(new Date(now.getTime() + settings.leaseMs)),
    });
  }

  function troubled(err: unknown, what: string): void {
    if (outage) return;
    outage = true;
    log.warn({ err: describe(err) }, `email-in: ${what}; retrying with back-off (logged once until it works again)`);
  }

  function recovered(): void {
    if (!outage) return;
    outage = false;
    log.info('email-in: reading the mailbox again');
  }

  async function ensureFolder(c: ImapFlow, name: string): Promise<string> {
    const made = await c.mailboxCreate(name);
    return made.path;
  }

  async function move(c: ImapFlow, uid: number, verdict: Verdict, folders: Folders, messageLog: Logger): Promise<void> {
    if (verdict.kind === 'processed') {
      await c.messageFlagsAdd(String(uid), ['\\Seen', CAPTURED], { uid: true });
      await c.messageMove(String(uid), folders.processed, { uid: true });
      deps.metrics.captured.inc(verdict.created);
      if (verdict.duplicates > 0) deps.metrics.duplicates.inc(verdict.duplicates);
      messageLog.info({ created: verdict.created, duplicates: verdict.duplicates }, 'email-in: message captured');
    } else if (verdict.kind === 'rejected') {
      // Left unread, and never answered: a reply to a forged sender would be backscatter.
      await c.messageMove(String(uid), folders.rejected, { uid: true });
      deps.metrics.rejected.inc({ reason: verdict.reason });
      messageLog.warn({ reason: verdict.reason, detail: verdict.detail }, 'email-in: message rejected');
    } else {
      deferred.set(uid, Date.now() + Math.min(verdict.retryAfterMs, settings.recheckDeferredMs));
      deps.metrics.deferred.inc();
      messageLog.info({ retry_after_ms: verdict.retryAfterMs }, 'email-in: over a user limit, left unread for a later window');
    }
  }

  /** One message: read, handled, moved. Errors of the IMAP connection propagate (the session ends). */
  async function readOne(c: ImapFlow, uid: number, folders: Folders): Promise<void> {
    const messageLog = log.child({ uid });
    const meta = await c.fetchOne(String(uid), { size: true }, { uid: true });
    // Gone since the search: another reader (before a lease hand-over) or a person moved it.
    if (!meta) return;
    deps.metrics.read.inc();
    if ((meta.size ?? 0) > settings.maxMessageBytes) {
      await move(c, uid, { kind: 'rejected', reason: 'too_large', detail: `${meta.size} bytes` }, folders, messageLog);
      return;
    }
    const message = await c.fetchOne(String(uid), { source: true }, { uid: true });
    if (!message || !message.source) return;
    let verdict: Verdict;
    try {
      verdict = await handleMessage(deps, message.source);
    } catch (err) {
      // Not the message's fault (the database, most likely): it stays unread and is tried again later.
      deferred.set(uid, Date.now() + settings.retryFailedMs);
      messageLog.error({ err }, 'email-in: could not handle a message; it stays in the mailbox and is tried again');
      return;
    }
    await move(c, uid, verdict, folders, messageLog);
  }

  /** Reads what is unread and due; true when more is waiting than one batch took. */
  async function scan(c: ImapFlow, folders: Folders, lost: AbortSignal): Promise<boolean> {
    woken = false;
    const lock = await c.getMailboxLock(target.mailbox);
    try {
      const box = c.mailbox;
      if (box && box.uidValidity !== uidValidity) {
        // New UIDVALIDITY: the uids remembered belong to another numbering.
        deferred.clear();
        uidValidity = box.uidValidity;
      }
      // Also mail marked captured but still here: the process died between flagging and moving it.
      // Handled again, it is a duplicate of its own item and only moves. Other read mail is left be.
      const unread = (await c.search({ or: [{ seen: false }, { keyword: CAPTURED }] }, { uid: true })) || [];
      const now = Date.now();
      for (const uid of deferred.keys()) if (!unread.includes(uid)) deferred.delete(uid);
      const due = unread.filter((uid) => (deferred.get(uid) ?? 0) <= now);
      for (const uid of due.slice(0, settings.batch)) {
        if (!running || lost.aborted || !(await holdLease())) return false;
        handling = true;
        try {
          await readOne(c, uid, folders);
        } finally {
          handling = false;
        }
      }
      return due.length > settings.batch;
    } finally {
      lock.release();
    }
  }

  /** One connection, until it drops (throws), the lease is lost or the reader stops (returns). */
  async function session(lost: AbortSignal): Promise<void> {
    const onLost = () => nudge();
    lost.addEventListener('abort', onLost);
    let closed = false;
    const c = new ImapFlow({
      host: target.host,
      port: target.port,
      secure: target.secure,
      auth: { user: target.user, pass: target.pass },
      logger: false,
      disableAutoIdle: !settings.idle,
      // IDLE soon after a scan, so new mail is noticed at once rather than after imapflow's 15 s default.
      autoIdleDelay: 250,
      connectionTimeout: settings.connectTimeoutMs,
      greetingTimeout: settings.connectTimeoutMs,
      // A peer gone without a FIN is noticed by the next scan's command timing out.
      socketTimeout: Math.max(settings.connectTimeoutMs, 2 * 60_000),
    });
    // Without a listener an error event would crash the process; the close that follows ends the session.
    c.on('error', (err: unknown) => log.debug({ err: describe(err) }, 'email-in: IMAP client error'));
    c.on('close', () => {
      closed = true;
      nudge();
    });
    c.on('exists', nudge);
    client = c;
    try {
      await c.connect();
      const folders = { processed: await ensureFolder(c, PROCESSED), rejected: await ensureFolder(c, REJECTED) };
      connected = true;
      recovered();
      log.info({ idle: settings.idle && c.capabilities.has('IDLE') }, 'email-in: reading the mailbox');
      while (running && !closed) {
        if (lost.aborted || !(await holdLease())) {
          log.info('email-in: another process holds the reader lease now');
          return;
        }
        if (await scan(c, folders, lost)) continue;
        await pause(settings.pollMs);
      }
      if (running) throw new Error('the IMAP server closed the connection');
    } finally {
      lost.removeEventListener('abort', onLost);
      connected = false;
      client = undefined;
      if (c.usable) await c.logout().catch(() => c.close());
      else c.close();
    }
  }

  const loop = createLeasedLoop({
    take: holdLease,
    renewEveryMs: settings.leaseRenewMs,
    standbyMs: settings.standbyMs,
    backoffMs: settings.backoffMs,
    work: async (lost) => {
      woken = false;
      await session(lost);
    },
    onTakeError: (err) => troubled(err, 'cannot take the reader lease (database)'),
    onError: (err) => troubled(err, 'cannot read the mailbox'),
  });

  return {
    get reading() {
      return connected;
    },
    start() {
      if (running) return;
      running = true;
      loop.start();
    },
    async stop() {
      if (!running) return;
      running = false;
      nudge();
      // A message in hand is finished (handled and moved) rather than cut between the two; a
      // connection only waiting, or one that hangs, is closed.
      if (!handling) client?.close();
      const finishing = setTimeout(() => client?.close(), settings.connectTimeoutMs);
      await loop.stop();
      clearTimeout(finishing);
      woken = false;
      await releaseLease(deps.db, { name: LEASE_NAME, owner }).catch((err: unknown) => log.warn({ err }, 'email-in: could not release the reader lease'));
    },
  };
}

/** An error for a log line: its message and code, without the IMAP client's internals. */
function describe(err: unknown): { message: string; code?: string } {
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    return typeof code === 'string' ? { message: err.message, code } : { message: err.message };
  }
  return { message: String(err) };
}
