import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import type { DatabaseSchema } from '../schema.js';
import { namedStatementPool } from './named-statements.js';

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
  const openPool = async () => {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    // Without a listener an idle client's error would crash the process.
    pool.on('error', options.onPoolError);
    return namedStatementPool(pool);
  };
  return new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool: openPool }),
    ...(options.log ? { log: options.log } : {}),
  });
}
