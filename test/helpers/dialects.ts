import type { DialectName } from '../../src/db/create-db.js';

/**
 * SQLite always, and PostgreSQL as well when TEST_DATABASE_URL points at a database we may use.
 * TEST_DIALECTS (e.g. "postgres") narrows the set, so CI can run each dialect as its own pass.
 */
function selectDialects(): DialectName[] {
  const available: DialectName[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];
  const wanted = process.env.TEST_DIALECTS?.split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (!wanted) return available;
  const unknown = wanted.filter((d) => !available.includes(d as DialectName));
  if (unknown.length > 0) throw new Error(`TEST_DIALECTS names unavailable dialects: ${unknown.join(', ')} (is TEST_DATABASE_URL set?)`);
  return wanted as DialectName[];
}

export const DIALECTS: DialectName[] = selectDialects();
