/** One invalid field of a 400 answer. */
export interface ErrorDetail {
  field: string;
  message: string;
  /** Where reading the field's text failed (UTF-16 offset): a filter query that does not parse. */
  position?: number;
}

/**
 * The server refused: `error` is the contract's stable code (`not_found`, `rate_limited`, …) and is
 * what callers branch on; `retryAfter` is the Retry-After header in seconds, when the answer had one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly details: ErrorDetail[] | undefined,
    readonly retryAfter: number | undefined,
    /** The whole error body (a 403 names `required_scope`, a 429 its limit). */
    readonly body: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** The server could not be reached at all (after the bounded retries). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach ${url}: ${describeCause(cause)}`, { cause });
  }
}

/** fetch's TypeError says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND …) is in its cause chain. */
function describeCause(cause: unknown): string {
  const parts: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; current instanceof Error && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(cause);
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An ApiError from a refused answer and its parsed body (which may be anything a proxy sends). */
export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const record = isRecord(body) ? body : {};
  const code = typeof record.error === 'string' ? record.error : `http_${response.status}`;
  const message = typeof record.message === 'string' ? record.message : response.statusText || `HTTP ${response.status}`;
  const details = Array.isArray(record.details) ? (record.details as ErrorDetail[]) : undefined;
  return new ApiError(response.status, code, message, details, parseRetryAfter(response.headers.get('retry-after')), record);
}
