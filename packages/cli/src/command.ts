import type { ParseArgsConfig } from 'node:util';
import type { Context } from './context.js';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** The flags every command takes besides its own. */
export const COMMON_OPTIONS: OptionSpecs = {
  json: { type: 'boolean' },
  /** Lists only (Command.lists): one JSON object a line, or bare full ids. */
  ndjson: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/**
 * One `cin` command: a file under commands/ and a line in commands/index.ts. `run` answers the exit
 * code; refusals are thrown (ApiError, UsageError, NotLoggedIn) and turned into codes by run.ts.
 */
export interface Command {
  name: string;
  /** One line for `cin --help`. */
  summary: string;
  /** The synopsis, e.g. `cin show ID`. */
  usage: string;
  /** The manual page body (`cin help NAME`): what it does, its flags, an example. */
  manual: string;
  /** Words that may follow the name (`cin projects add`), for shell completion. */
  subcommands?: readonly string[];
  /** The values a flag takes, when they are few (`--due today|overdue|week`), for shell completion. */
  flagValues?: Readonly<Record<string, readonly string[]>>;
  /** It prints a list, so it takes --ndjson and --quiet (Context.printList); other commands refuse them. */
  lists?: boolean;
  /** Its own flags; --json, --server and --help are added to every command. */
  options: OptionSpecs;
  run(ctx: Context): Promise<number>;
}

/** Wrong use of the command line: exit 2, with the command's usage on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** No server or no key: exit 3. */
export class NotLoggedIn extends Error {
  override readonly name = 'NotLoggedIn';
  constructor() {
    super('not logged in: run cin login');
  }
}

/** A refusal decided on this side (an ambiguous short id, an unreadable file): exit 1 like an API refusal. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
