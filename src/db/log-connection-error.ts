import type { Logger } from 'pino';

/** A lost idle database connection is logged (the pool replaces it); it never crashes the process. */
export const logConnectionError =
  (logger: Pick<Logger, 'error'>) =>
  (error: Error): void => {
    logger.error({ err: error }, 'database connection error (the pool reconnects on the next query)');
  };
