import { NetworkError, parseRetryAfter } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  retries?: number;
  /** A Retry-After longer than this is not waited for: the 429/503 is returned as it is (default 60 s). */
  maxDelayMs?: number;
  /** Wait before retrying a failed connection, doubled each time (default 500 ms). */
  backoffMs?: number;
}

export type FetchFn = (request: Request) => Promise<Response>;

const RETRIED_STATUSES = new Set([429, 503]);

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * fetch with a bounded retry of 429 and 503 (after Retry-After, or the backoff without one) and of
 * connections that failed. Retrying a POST is safe because the client gave it an Idempotency-Key
 * before this point, and every attempt sends the same key.
 */
export function retryingFetch(fetchFn: FetchFn, options: RetryOptions = {}): FetchFn {
  const retries = Math.max(0, options.retries ?? 3);
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 500;
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await fetchFn(last ? request : request.clone());
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        if (last) throw new NetworkError(originOf(request.url), error);
        await sleep(backoffMs * 2 ** attempt, request.signal);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const delayMs = retryAfter === undefined ? backoffMs * 2 ** attempt : retryAfter * 1000;
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delayMs, request.signal);
    }
  };
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};
