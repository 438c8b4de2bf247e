import { badRequest } from '../errors.js';
import { isUuid } from './ids.js';
import { isCanonicalTimestamp } from './timestamps.js';

/**
 * Keyset cursors: which ordering they belong to, and the sort key and id of the last row of a
 * page, as base64url JSON. Opaque to clients; anything that does not decode to that shape, or
 * belongs to another listing, is a 400.
 */
export interface CursorKey {
  k: string;
  id: string;
}

/**
 * The newest-first order of pages, (created_at, id) descending, as the databases' byte-wise
 * collation compares them: both are ASCII, where JavaScript's comparison of UTF-16 code units gives
 * the same order as bytes.
 */
export const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }): number =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.created_at < b.created_at ? 1 : -1;

/** Every cursor of the API is one of these: a JSON array as base64url, opaque to clients. */
export const encodeToken = (values: readonly unknown[]): string => Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');

/** The array of `length` values a token holds, or undefined for anything else (the caller then answers 400). */
export function decodeToken(token: string, length: number): unknown[] | undefined {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(token)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return Array.isArray(parsed) && parsed.length === length ? (parsed as unknown[]) : undefined;
  } catch {
    return undefined;
  }
}

export const encodeCursor = (ordering: string, key: CursorKey): string => encodeToken([ordering, key.k, key.id]);

export function decodeCursor(ordering: string, cursor: string): CursorKey {
  const invalid = badRequest('cursor is not valid here; pass next_cursor from the previous page unchanged', 'cursor');
  const parsed = decodeToken(cursor, 3);
  if (!parsed) throw invalid;
  const [o, k, id] = parsed;
  // Only values this service could have written get through to a query.
  if (o !== ordering || typeof k !== 'string' || typeof id !== 'string' || !isCanonicalTimestamp(k) || !isUuid(id)) throw invalid;
  return { k, id };
}

/** Clamp to the contract's maximum; the schema already refused values below 1. */
export const clampLimit = (limit: number | undefined, fallback: number, max: number): number => Math.min(limit ?? fallback, max);

/**
 * Listings fetch one row more than the page; this cuts the page and makes the cursor of its last
 * row, so a page is never empty while the previous one had a next_cursor.
 */
export function cutPage<R extends { id: string }>(
  rows: readonly R[],
  limit: number,
  ordering: string,
  sortKey: (row: R) => string,
): { rows: R[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  return { rows: pageRows, next_cursor: more && last ? encodeCursor(ordering, { k: sortKey(last), id: last.id }) : null };
}
