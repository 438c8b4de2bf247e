import { Kysely, PostgresDialect, type DialectAdapter, type LogEvent, type PostgresDialectConfig } from 'kysely';
import { offerDirectQueries, type DirectQuery } from '../direct-queries.js';
import type { DatabaseSchema } from '../schema.js';
import { namedStatementPool, type NamedStatementPool } from './named-statements.js';

/** Kysely's PostgreSQL dialect, offering a direct lane (direct-queries.ts) for the adapter it makes. */
class DirectPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly direct: DirectQuery | undefined,
  ) {
    super(config);
  }

  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter();
    if (this.direct) offerDirectQueries(adapter, this.direct);
    return adapter;
  }
}

export interface PostgresOptions {
  poolSize?: number;
  /** Schema to use (tests isolate themselves in one). */
  searchPath?: string;
  log?: (event: LogEvent) => void;
  /** An idle client lost its server (restart, network): the pool drops it and the next query reconnects. */
  onPoolError: (error: Error) => void;
}

export function createPostgresDb(url: string, options: PostgresOptions): Kysely<DatabaseSchema> {
  // pg is loaded at the first query: a SQLite deployment never loads it (it costs start-up time).
  // Set once Kysely's driver has opened the pool, unset when it ends it: the direct lane runs only in between.
  let open: NamedStatementPool | undefined;
  const openPool = async () => {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    // Without a listener an idle client's error would crash the process.
    pool.on('error', options.onPoolError);
    const named = namedStatementPool(pool);
    open = named;
    return {
      ...named,
      end: async () => {
        open = undefined;
        await named.end();
      },
    };
  };
  // Outside a transaction Kysely checks a client out, queries and releases it; pg's pool.query does the same for less.
  const direct: DirectQuery = (query) => open?.run(query.sql, query.parameters).then((result) => result.rows);
  return new Kysely<DatabaseSchema>({
    dialect: new DirectPostgresDialect({ pool: openPool }, options.log === undefined ? direct : undefined),
    ...(options.log ? { log: options.log } : {}),
  });
}
