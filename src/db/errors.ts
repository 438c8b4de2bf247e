import { SECOND_FULL_MESSAGE } from './migrations/2026-11-23-0001-search-key-ranges.js';

/** True for a unique-key violation on either database (SQLite's error code, PostgreSQL's SQLSTATE). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when SQLite refused an item because its user's second has no search key left (see that migration). */
export function isSecondFull(error: unknown): boolean {
  return error instanceof Error && error.message.includes(SECOND_FULL_MESSAGE);
}
