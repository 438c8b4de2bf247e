/** The stable error codes of the contract; clients branch on these, so they never change. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'pro_required'
  | 'access_denied'
  | 'insufficient_scope'
  | 'not_found'
  | 'conflict'
  | 'already_exchanged'
  | 'expired'
  | 'cursor_expired'
  | 'precondition_failed'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'storage_quota_exceeded'
  | 'unsupported_media_type'
  | 'not_approved'
  | 'rate_limited'
  | 'slow_down'
  | 'ai_rate_limited'
  | 'too_many_streams'
  | 'transcription_failed'
  | 'transcription_unavailable'
  | 'service_unavailable'
  | 'internal_error';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  pro_required: 402,
  access_denied: 403,
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  already_exchanged: 409,
  expired: 410,
  cursor_expired: 410,
  precondition_failed: 412,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  storage_quota_exceeded: 413,
  unsupported_media_type: 415,
  not_approved: 425,
  rate_limited: 429,
  slow_down: 429,
  ai_rate_limited: 429,
  too_many_streams: 429,
  transcription_failed: 422,
  transcription_unavailable: 503,
  service_unavailable: 503,
  internal_error: 500,
};

export interface ErrorDetail {
  field: string;
  message: string;
  /** Where in the field's text reading failed (UTF-16 offset): a filter query that does not parse. */
  position?: number;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** Extra members of the error body (the rate-limit fields of a 429). */
  fields?: Record<string, string | number>;
  /** Response headers that belong to the error (Retry-After). */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly statusCode: number;
  readonly details: ErrorDetail[] | undefined;
  readonly fields: Record<string, string | number> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ErrorDetail[] | AppErrorOptions = {},
  ) {
    super(message);
    this.statusCode = STATUS_BY_CODE[code];
    const opts = Array.isArray(options) ? { details: options } : options;
    this.details = opts.details;
    this.fields = opts.fields;
    this.headers = opts.headers;
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);

export const badRequest = (message: string, field?: string): AppError => new AppError('bad_request', message, field ? [{ field, message }] : {});
