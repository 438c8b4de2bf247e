/** How the email-in reader paces itself; tests shorten the waits. */
export interface ReaderSettings {
  /** Rescan of the mailbox when no IDLE notice came (the contract's "within 10 s"). */
  pollMs: number;
  /** false: never IDLE, only poll (servers without IDLE are found by imapflow itself). */
  idle: boolean;
  /**
   * How long a reader's lease lasts; renewed every leaseRenewMs while it reads (and before every
   * message), so a reader that died is replaced within leaseMs + standbyMs (issue 45: under 15 s).
   */
  leaseMs: number;
  leaseRenewMs: number;
  /** How often a process without the lease asks for it. */
  standbyMs: number;
  /** Back-off between reconnects: doubling from the first to the last. */
  backoffMs: readonly [number, number];
  /** Messages handled per scan before the lease is checked and the mailbox searched again. */
  batch: number;
  /** A message larger than this is rejected (too_large) without being downloaded. */
  maxMessageBytes: number;
  /** How long a message whose handling failed (the database) waits before it is tried again. */
  retryFailedMs: number;
  /**
   * Mail over a user's limits is looked at again after the window resets, or after this at the
   * latest (a plan upgrade or a changed limit lets it through sooner).
   */
  recheckDeferredMs: number;
  /** Connection, greeting and socket inactivity timeouts of the IMAP client. */
  connectTimeoutMs: number;
}

export const DEFAULT_READER_SETTINGS: ReaderSettings = Object.freeze({
  pollMs: 10_000,
  idle: true,
  leaseMs: 10_000,
  leaseRenewMs: 3_000,
  standbyMs: 3_000,
  backoffMs: Object.freeze([1_000, 60_000] as const),
  batch: 50,
  maxMessageBytes: 40 * 1024 * 1024,
  retryFailedMs: 60_000,
  recheckDeferredMs: 5 * 60_000,
  connectTimeoutMs: 30_000,
});
