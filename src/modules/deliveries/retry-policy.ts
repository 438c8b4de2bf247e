/*
 * When a delivery is tried again. A set is one attempt more than there are retry delays (the
 * spec's three attempts: now, then after each delay); delays count from the end of the failed
 * attempt, and redeliver starts a fresh set.
 */

/** Attempts in one set. */
export const attemptsPerSet = (retryDelaysMs: readonly number[]): number => retryDelaysMs.length + 1;

/** A lease outlives the longest attempt (the timeout bounds DNS, connect and answer) with room to record it. */
export const leaseFor = (timeoutMs: number): number => timeoutMs + 5_000;

/** A key that cannot be opened (SECRET_KEY changed) is retried this much later rather than dropped. */
export const KEY_RETRY_MS = 60_000;
