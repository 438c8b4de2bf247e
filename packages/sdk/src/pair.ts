import { ApiError } from './errors.js';
import { sleep, type FetchFn, type RetryOptions } from './retry.js';
import { createApi, serverRoot, unwrap } from './transport.js';
import type { PairResult, Scope } from './types.js';

export interface PairOptions {
  baseUrl: string;
  /** Names the client on the approval page and the key it gets (1..100 characters). */
  label: string;
  /** What the key may do (default: all four); the user may untick any of them. */
  scopes?: Scope[];
  /** Whole days the key works once minted (1..3650; default: until revoked); the approval page says so. */
  expiresInDays?: number;
  /** Stops waiting (the result then rejects with the signal's reason). */
  signal?: AbortSignal;
  fetch?: FetchFn;
  retry?: RetryOptions;
}

export interface Pairing {
  /** Open this in a browser where the user is signed in, to approve or deny. */
  url: string;
  /** When the approval link and the exchange stop working (10 minutes after the start). */
  expiresAt: string;
  /**
   * The key once the user approved. Rejects with ApiError `access_denied` (denied), `expired`,
   * `already_exchanged` or `not_found`, or with the signal's reason.
   */
  result: Promise<PairResult>;
}

/** The poll interval the server asks for, used when a 425 comes without Retry-After. */
const DEFAULT_POLL_S = 2;
/**
 * The server answers 410 expired once its 10 minutes are over; this local bound (measured on this
 * machine's clock, so a skewed clock cannot cut it short) only ends the wait if it never does.
 */
const WAIT_BOUND_MS = 11 * 60_000;

/** 24 random bytes, base64url: the 32-character single-use state the server asks for. */
function newState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/**
 * The browser pairing flow: registers a state, answers the approval URL as soon as the server took
 * it, and polls the exchange in the background, waiting as long as each Retry-After says.
 */
export async function pair(options: PairOptions): Promise<Pairing> {
  const root = serverRoot(options.baseUrl);
  const api = createApi({ baseUrl: root, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.retry ? { retry: options.retry } : {}) });
  const state = newState();
  const started = await unwrap(
    api.POST('/api/v1/connect/start', {
      body: {
        state,
        label: options.label,
        ...(options.scopes ? { scopes: options.scopes } : {}),
        ...(options.expiresInDays !== undefined ? { expires_in_days: options.expiresInDays } : {}),
      },
      signal: options.signal ?? null,
    }),
  );
  const deadline = Date.now() + WAIT_BOUND_MS;

  const poll = async (): Promise<PairResult> => {
    for (;;) {
      try {
        return await unwrap(api.POST('/api/v1/connect/exchange', { body: { state }, signal: options.signal ?? null }));
      } catch (error) {
        // 425 not_approved: not yet; 429 slow_down or rate_limited: polled too fast. Wait, then ask again.
        if (!(error instanceof ApiError) || (error.status !== 425 && error.status !== 429)) throw error;
        if (Date.now() > deadline) throw new ApiError(410, 'expired', 'the pairing expired before it was approved', undefined, undefined, {});
        await sleep((error.retryAfter ?? DEFAULT_POLL_S) * 1000, options.signal);
      }
    }
  };
  const result = poll();
  // The caller may attach its handler later (after showing the URL); a rejection meanwhile is not "unhandled".
  result.catch(() => undefined);
  return { url: `${root}/connect/agent?state=${state}`, expiresAt: started.expires_at, result };
}
