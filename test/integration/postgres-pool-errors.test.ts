import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { DIALECTS } from '../helpers/dialects.js';
import { waitFor } from '../helpers/wait.js';

/*
 * An idle pooled connection whose server goes away (a restart, a terminated backend) must neither
 * crash the process nor vanish silently: the error reaches the logger, and the next query
 * reconnects.
 */
describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL pool errors', () => {
  it('reports an idle connection lost to the server, and the next query works', async () => {
    const errors: Error[] = [];
    const { db } = createDb(process.env.TEST_DATABASE_URL!, { poolSize: 1, onConnectionError: (error) => errors.push(error) });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await waitFor(() => errors.length > 0, { timeoutMs: 2_000, intervalMs: 20, what: 'the pool to report the lost connection' });
      expect(errors.length).toBeGreaterThan(0);
      expect(String(errors[0]?.message)).toMatch(/terminat/i);
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await db.destroy();
    }
  });
});
