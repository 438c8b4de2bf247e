import { sql } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';
import type { NewItemRow } from './items.repository.js';

/**
 * Rows per INSERT: 21 columns a row keeps a statement at 10,500 parameters, under SQLite's 32,766 and
 * PostgreSQL's 65,535. A statement per row was most of an import's time: on PostgreSQL its round
 * trips (100,000 of them), on SQLite the statement's own overhead (decision 0101).
 */
const ITEM_ROWS_PER_INSERT = 500;

/** New items in as few statements as the parameter limits allow, in the order given (a parent before its subtasks). */
export async function insertItems(db: Executor, rows: readonly NewItemRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ITEM_ROWS_PER_INSERT) {
    await db
      .insertInto('items')
      .values(rows.slice(i, i + ITEM_ROWS_PER_INSERT))
      .execute();
  }
}

/**
 * The items' columns that reads filter, join or order on (decision 0108 and its addendum). The
 * texts, the tsvector and the attachments are left out: they are most of the sampling's cost (230 ms
 * for these at 100,000 rows, 380 ms for every column). With only (user_id, id), as first written, the
 * account's next reads were planned blind: `parent_id = any(…)` as a scan of all the user's items,
 * and the tag-names lookup over never-analyzed `item_tags` (the Markdown export after a 100,000-row
 * import took 35.8 s; 6.0 s with these).
 */
const PLANNED_COLUMNS = [
  'user_id',
  'id',
  'project_id',
  'parent_id',
  'is_completed',
  'status',
  'due_at',
  'all_day',
  'archived_at',
  'created_at',
  'updated_at',
  'remind_at',
  'recurrence_rule',
] as const;

/**
 * PostgreSQL: ANALYZE of the items and their tags inside the import's transaction, which samples
 * the rows the transaction wrote itself (decision 0108). Without it the planner's picture of the
 * user is the committed one (none, or a few rows), so each foreign-key check and `id = any(…)` lookup
 * walks every row of the user through the (user_id, due_at) index instead of probing the primary
 * key: quadratic in the import's size. ANALYZE holds its lock until the commit, so one import at a
 * time does it (a transaction-scoped advisory lock); another goes on with the plans it has. A
 * partial ANALYZE leaves autovacuum's count of changes alone, so the skipped columns are still
 * analyzed after the commit. SQLite's plans do not turn on this (nothing to do).
 */
export async function analyzeItemsInTransaction(trx: Executor, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext('cin_import_analyze')) as locked`.execute(trx);
  if (rows[0]?.locked === true) await sql`analyze items (${sql.raw(PLANNED_COLUMNS.join(', '))}), item_tags, tags`.execute(trx);
}
