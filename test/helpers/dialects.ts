import type { DialectName } from '../../src/db/create-db.js';

/** SQLite always; PostgreSQL as well when TEST_DATABASE_URL points at a database we may use. */
export const DIALECTS: DialectName[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];
