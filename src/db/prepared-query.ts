import type { Compilable, CompiledQuery, DialectAdapter } from 'kysely';
import { directQueriesOf } from './direct-queries.js';
import type { Executor } from './schema.js';

/** Stands in for one parameter value while the query is built; each run puts the real value in its place. */
class Slot {
  constructor(
    readonly name: string,
    readonly index: number | undefined,
  ) {}
}

type Value = string | number | boolean | null;
/** Longer lists are built each time: one template per length would keep thousands of them. */
const MAX_CACHED_LIST = 256;
export type PreparedParams = Record<string, Value | readonly Value[] | undefined>;

/**
 * A query that Kysely builds and compiles once per database and shape, then runs with fresh values.
 * Building and compiling costs 8–12 µs per query, as much as SQLite takes to find a page of items,
 * and the hot paths (authentication, list pages, their tags) run it on every request.
 *
 * `build` receives stand-ins for the parameters and must hand them to Kysely untouched (compute
 * derived values before the call and pass them as parameters). The shape is what else decides the
 * SQL: which parameters are undefined, the length of each list (one `?` per element), and `shape`
 * for a choice made on a value (a sort direction). Every parameter that is defined must reach the
 * compiled query; the first compile checks that, so a builder that computes on a stand-in fails at
 * once instead of running with a wrong value.
 *
 * Outside a transaction the query takes the database's direct lane when it has one
 * (direct-queries.ts): Kysely's executor, connection provider and their promise jobs cost about as
 * much per query as SQLite's own work for one item, and a pg pool's checkout more (decision 0064).
 */
export function preparedQuery<P extends PreparedParams, Row>(build: (db: Executor, params: P, shape: string) => Compilable<Row>): PreparedQuery<P, Row> {
  const templates = new WeakMap<DialectAdapter, Map<string, CompiledQuery>>();

  /** What decides the SQL besides `shape`: which parameters are defined, how long each list is. Null past MAX_CACHED_LIST. */
  function shapeKey(params: P, shape: string): string | null {
    let key = shape;
    for (const name in params) {
      const value = params[name];
      if (Array.isArray(value) && value.length > MAX_CACHED_LIST) return null;
      key += `|${name}:${value === undefined ? '-' : Array.isArray(value) ? value.length : ''}`;
    }
    return key;
  }

  function template(db: Executor, adapter: DialectAdapter, params: P, shape: string, key: string): CompiledQuery {
    let byShape = templates.get(adapter);
    if (!byShape) templates.set(adapter, (byShape = new Map<string, CompiledQuery>()));
    let compiled = byShape.get(key);
    if (!compiled) {
      const slots: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(params)) {
        if (value !== undefined) slots[name] = Array.isArray(value) ? value.map((_, i) => new Slot(name, i)) : new Slot(name, undefined);
      }
      compiled = build(db, slots as P, shape).compile();
      const used = new Set(compiled.parameters.filter((p): p is Slot => p instanceof Slot).map((slot) => slot.name));
      const missing = Object.keys(slots).filter((name) => !used.has(name));
      if (missing.length > 0) throw new Error(`prepared query: parameter ${missing.join(', ')} did not reach the SQL (computed on instead of passed through?)`);
      byShape.set(key, compiled);
    }
    return compiled;
  }

  /** The query with this run's values in place of the slots; undefined when the shape is not cached (a long list). */
  function filled(db: Executor, adapter: DialectAdapter, params: P, shape: string): CompiledQuery<Row> | undefined {
    const key = shapeKey(params, shape);
    if (key === null) return undefined;
    const compiled = template(db, adapter, params, shape, key);
    // Each compiled parameter is a slot to fill or a constant the builder wrote.
    const values = compiled.parameters.map((p) => {
      if (!(p instanceof Slot)) return p;
      const value = params[p.name];
      return p.index === undefined ? value : (value as readonly Value[])[p.index];
    });
    return { ...compiled, parameters: values };
  }

  const run = async (db: Executor, params: P, shape = '') => {
    const adapter = db.getExecutor().adapter;
    const query = filled(db, adapter, params, shape);
    if (query === undefined) return (await db.executeQuery(build(db, params, shape))).rows;
    if (!db.isTransaction) {
      const rows = directQueriesOf(adapter)?.(query);
      if (rows !== undefined) return (await rows) as Row[];
    }
    const result = await db.executeQuery<Row>(query);
    return result.rows;
  };
  return Object.assign(run, {
    compile: (db: Executor, params: P, shape = '') => filled(db, db.getExecutor().adapter, params, shape) ?? build(db, params, shape).compile(),
  });
}

/**
 * A prepared query: run it (`await q(db, params)`), or take it compiled with its values
 * (`q.compile(db, params)`) for a database's synchronous lane (sqlite/sync-units.ts).
 */
export type PreparedQuery<P extends PreparedParams, Row> = ((db: Executor, params: P, shape?: string) => Promise<Row[]>) & {
  compile(db: Executor, params: P, shape?: string): CompiledQuery<Row>;
};
