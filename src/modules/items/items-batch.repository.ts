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
