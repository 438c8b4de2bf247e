import { resolve } from 'node:path';

/** What a DATABASE_URL looks like, for the messages that refuse one. */
const POSTGRES_EXAMPLE = 'postgres://user:password@host:5432/inbox, user and password percent-encoded';

/**
 * Why DATABASE_URL cannot be used, or null. Only what can be told without connecting: the scheme,
 * that a postgres:// URL parses, and that it names its database. Without a name the driver falls
 * back to the user's name (usually `postgres`, the cluster's shared database) and the schema landed
 * there unnoticed; `/postgres` written out is a choice and is taken. The URL itself is never quoted
 * back: it may hold a password.
 */
export function databaseUrlProblem(url: string): string | null {
  if (url.startsWith('sqlite:')) return null;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
    return `DATABASE_URL must start with sqlite: (a file) or postgres:// (a server)${scheme ? `, not ${scheme}:` : ''}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `DATABASE_URL is not a valid URL (${POSTGRES_EXAMPLE})`;
  }
  if (databaseName(parsed) === '') {
    return `DATABASE_URL names no database: add it after the host (${POSTGRES_EXAMPLE}); write /postgres only if the server's default database is really meant`;
  }
  return null;
}

/** Percent-decoded as the driver decodes it; a malformed escape is left as written. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The path names the database; pg's connection strings also take `?database=`. */
function databaseName(url: URL): string {
  return decoded(url.pathname.replace(/^\//, '')) || (url.searchParams.get('database') ?? '');
}

export type DatabaseDescription = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; host: string; port: number; database: string; user?: string };

/**
 * Which database a DATABASE_URL (one that passed databaseUrlProblem) points at, for the log line at
 * start: never the password, nor query parameters (which may carry one).
 */
export function describeDatabase(url: string): DatabaseDescription {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    return { dialect: 'sqlite', file: path === '' || path === ':memory:' ? ':memory:' : resolve(path) };
  }
  const parsed = new URL(url);
  const user = decoded(parsed.username);
  return {
    dialect: 'postgres',
    host: parsed.hostname === '' ? (parsed.searchParams.get('host') ?? 'localhost') : parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? 5432 : Number(parsed.port),
    database: databaseName(parsed),
    ...(user ? { user } : {}),
  };
}
