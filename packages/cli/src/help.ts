import type { Command } from './command.js';

const COMMON_FLAGS = `Every command takes:
  --json          print exactly one JSON document on stdout (and nothing else there)
  --ndjson        lists (ls, search, projects, filters, channels): one JSON object a line
  -q, --quiet     lists: the full ids only, one a line
  --server URL    the server (default: CAPTURE_INBOX_URL, else the one you logged in to)
  -h, --help      this command's manual`;

const ENVIRONMENT = `Environment:
  CAPTURE_INBOX_URL     the server; overrides the saved one
  CAPTURE_INBOX_TOKEN   an API key; overrides the saved one (never pass a key as an argument)
  XDG_CONFIG_HOME       where the login is saved: $XDG_CONFIG_HOME/capture-inbox/config.json
                        (default ~/.config/capture-inbox/config.json, mode 0600)
  NO_COLOR              set: no colour on a terminal; FORCE_COLOR=1: colour in a pipe too
  COLUMNS               the width titles are cut to in a pipe (a terminal tells its own)
  VISUAL, EDITOR        the editor of cin edit ID (default: vi)`;

const EXIT_CODES = `Exit codes:
  0    done
  1    the server refused (stderr: "error <code>: <message>"), or could not be reached
  2    wrong use: unknown command or flag, missing argument (usage on stderr)
  3    not logged in, or the key was revoked or has expired: run cin login
  130  interrupted (Ctrl-C); nothing is saved`;

/** `cin --help`: every command with its one-line summary. */
export function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'cin: your Capture Inbox from a terminal',
    '',
    'Usage: cin COMMAND [ARGS] [FLAGS]',
    '',
    'Commands:',
    ...lines,
    '',
    COMMON_FLAGS,
    '',
    ENVIRONMENT,
    '',
    EXIT_CODES,
    '',
    'IDs: the short id that cin ls shows (the end of the item id) or the whole id.',
    'Run "cin help COMMAND" for a command\'s manual; "cin --version" prints the version.',
    '',
  ].join('\n');
}

/** `cin help COMMAND`: the command's manual page. */
export function manualPage(command: Command): string {
  return [`cin ${command.name}: ${command.summary}`, '', `Usage: ${command.usage}`, '', command.manual.trim(), '', COMMON_FLAGS, '', EXIT_CODES, ''].join('\n');
}

/** The short reminder printed on stderr after a usage error. */
export function usageLine(command: Command | undefined): string {
  return command
    ? `usage: ${command.usage}\nRun "cin help ${command.name}" for its manual.`
    : 'usage: cin COMMAND [ARGS] [FLAGS]\nRun "cin --help" for the commands.';
}
