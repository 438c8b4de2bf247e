import type { QueryResult } from 'kysely';
import type SQLite from 'better-sqlite3';

type RowBuilder = (values: unknown[]) => Record<string, unknown>;
const rowBuilders = new Map<string, RowBuilder>();

/**
 * A function that turns one raw row into an object literal with these keys. An object literal is
 * created from one prebuilt shape; assigning keys one by one walks the shape transitions for each
 * row, which cost 20 µs on a page of 50 items. Names come from our own statements and are quoted
 * with JSON.stringify; `__proto__` would set the prototype in a literal, so it gets the slow path.
 */
function rowBuilder(names: readonly string[]): RowBuilder {
  const key = JSON.stringify(names);
  let build = rowBuilders.get(key);
  if (!build) {
    build = names.includes('__proto__')
      ? (values) => {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < names.length; i += 1)
            Object.defineProperty(row, names[i]!, { value: values[i], enumerable: true, writable: true, configurable: true });
          return row;
        }
      : // eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiled once per column list, from quoted names (above)
        (new Function('v', `return { ${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')} };`) as RowBuilder);
    rowBuilders.set(key, build);
  }
  return build;
}

/** A prepared statement as the driver uses it: rows come back as objects. */
export interface RowStatement {
  readonly reader: boolean;
  /** True when the statement does not write to the database (better-sqlite3's `readonly`). */
  readonly readonly: boolean;
  all(parameters: readonly unknown[]): Record<string, unknown>[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
}

/**
 * Rows built in JavaScript from better-sqlite3's raw arrays. better-sqlite3 builds each row object
 * property by property from native code; building it here lets V8 reuse one object shape, which
 * halves the cost of turning a page of 50 items into rows.
 */
export function objectRows(statement: SQLite.Statement): RowStatement {
  const { reader, readonly } = statement;
  if (!reader) {
    return {
      reader,
      readonly,
      all: () => [],
      run: (parameters) => statement.run(parameters),
    };
  }
  const raw = statement.raw(true);
  const namesNow = () => raw.columns().map((column) => column.name);
  let names = namesNow();
  let build = rowBuilder(names);
  const toObject = (values: unknown[]): Record<string, unknown> => {
    // Another connection changed the schema and SQLite re-prepared a `select *` with new columns.
    if (values.length !== names.length) build = rowBuilder((names = namesNow()));
    return build(values);
  };
  return {
    reader,
    readonly,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => raw.run(parameters),
  };
}

/** Runs a statement as Kysely expects: rows for a statement that returns them, counts otherwise. */
export function runStatement<R>(statement: RowStatement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * A statement for the read connection: it returns rows and writes nothing. `readonly` alone is not
 * enough: SQLite counts a write to a virtual table (an FTS5 insert) as read-only, since the table's
 * module does the writing.
 */
export const isRead = (statement: RowStatement): boolean => statement.reader && statement.readonly;
