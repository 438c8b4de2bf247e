import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** Distinct SQL texts prepared by name, at most; later ones run unnamed (parsed and planned each time). */
const MAX_NAMED_STATEMENTS = 1_000;
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * A pg pool for Kysely whose queries run as named prepared statements: PostgreSQL parses and plans
 * a statement once per connection instead of on every query (node-postgres sends unnamed ones by
 * default). The statements are the service's own, a few dozen distinct texts; a list of ids of
 * varying length makes one text per length, so the number of names is bounded.
 */
export interface NamedStatementPool extends PostgresPool {
  /** One query outside any transaction, named like the clients' (a pool checkout, the query, the release, inside pg). */
  run(text: string, parameters: readonly unknown[]): Promise<pg.QueryResult<Record<string, unknown>>>;
}

export function namedStatementPool(pool: pg.Pool): NamedStatementPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS && !SCHEMA_CHANGE.test(text)) names.set(text, (name = `cin_${names.size}`));
    return name;
  };
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      wrapper = {
        query: ((textOrCursor: unknown, parameters?: readonly unknown[]) => {
          if (typeof textOrCursor !== 'string') return client.query(textOrCursor as never);
          const name = nameOf(textOrCursor);
          const values = parameters ? [...parameters] : [];
          return client.query(name ? { name, text: textOrCursor, values } : { text: textOrCursor, values }) as unknown as Promise<PostgresQueryResult<unknown>>;
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
    run: (text, parameters) => {
      const name = nameOf(text);
      return pool.query<Record<string, unknown>>(name ? { name, text, values: [...parameters] } : { text, values: [...parameters] });
    },
  };
}
