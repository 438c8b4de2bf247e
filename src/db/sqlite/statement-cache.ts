import type SQLite from 'better-sqlite3';
import { objectRows, type RowStatement } from './row-objects.js';

/** Prepared statements kept per connection, least recently used dropped first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 keeps no statement cache and Kysely prepares each query it runs, so without this
 * every query was parsed and planned again. Reusing a statement per SQL text is safe: better-sqlite3
 * runs one statement at a time, and SQLite re-prepares a statement by itself when the schema
 * changes. The row objects' column names, though, are read once per statement, so a schema change
 * drops the cached statements (see clear()).
 */
export class StatementCache {
  readonly #database: SQLite.Database;
  readonly #statements = new Map<string, RowStatement>();

  constructor(database: SQLite.Database) {
    this.#database = database;
  }

  prepare(text: string): RowStatement {
    let statement = this.#statements.get(text);
    if (statement) this.#statements.delete(text);
    else statement = objectRows(this.#database.prepare(text));
    this.#statements.set(text, statement);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
    return statement;
  }

  clear(): void {
    this.#statements.clear();
  }
}
