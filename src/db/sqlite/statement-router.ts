import { isRead, type RowStatement } from './row-objects.js';
import type { StatementCache } from './statement-cache.js';

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * Which connection runs a statement: the read-only one when the statement writes nothing, else the
 * writer. Learnt once per SQL text from better-sqlite3's flags (see isRead).
 */
export class StatementRouter {
  readonly #writesByText = new Set<string>();

  constructor(
    private readonly writerStatements: StatementCache,
    /** None for `:memory:`, where the writer reads too. */
    private readonly readerStatements: StatementCache | undefined,
  ) {}

  /** The statement on the read connection when it does not write; undefined for a write. */
  forRead(text: string): RowStatement | undefined {
    if (this.#writesByText.has(text)) return undefined;
    // Schema changes are compiled by the writer only: the reader's copy of the schema may be a
    // commit behind, and compiling `create index` there can fail on an index just dropped.
    if (SCHEMA_CHANGE.test(text)) {
      this.#writesByText.add(text);
      return undefined;
    }
    if (!this.readerStatements) {
      // `:memory:` has one connection: reads run on the writer, and see a batch's uncommitted units.
      const statement = this.forWriter(text);
      return isRead(statement) ? statement : (this.#writesByText.add(text), undefined);
    }
    let statement: RowStatement;
    try {
      statement = this.readerStatements.prepare(text);
    } catch {
      // The writer compiles it (or reports why it cannot).
      return undefined;
    }
    if (isRead(statement)) return statement;
    this.#writesByText.add(text);
    return undefined;
  }

  forWriter(text: string): RowStatement {
    if (SCHEMA_CHANGE.test(text)) {
      this.writerStatements.clear();
      this.readerStatements?.clear();
    }
    return this.writerStatements.prepare(text);
  }
}
