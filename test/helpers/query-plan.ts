import { CompiledQuery, type Compilable } from 'kysely';
import type { DialectName } from '../../src/db/create-db.js';
import type { Db } from '../../src/db/schema.js';

/**
 * The plan a query gets, as text. On PostgreSQL the generic plan, which the server's named
 * statements come to after five runs (a partial index is usable there only if the query states its
 * condition in literals), with sequential and bitmap scans off: on a test's small table PostgreSQL
 * would rather read it whole.
 */
export async function queryPlan(db: Db, dialect: DialectName, query: Compilable<unknown>): Promise<string> {
  const compiled = query.compile();
  if (dialect === 'sqlite') {
    const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    for (const setting of ['enable_seqscan = off', 'enable_bitmapscan = off', 'plan_cache_mode = force_generic_plan']) {
      await trx.executeQuery(CompiledQuery.raw(`set local ${setting}`));
    }
    await trx.executeQuery(CompiledQuery.raw(`prepare planned as ${compiled.sql}`));
    const values = compiled.parameters.map((p) => `'${String(p)}'`).join(', ');
    const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain execute planned(${values})`));
    await trx.executeQuery(CompiledQuery.raw('deallocate planned'));
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
