import { parseArgs } from 'node:util';
import { ApiError, NetworkError } from '@capture-inbox/sdk';
import { CliError, COMMON_OPTIONS, NotLoggedIn, UsageError, type Command } from './command.js';
import { COMMANDS, findCommand } from './commands/index.js';
import { Context, type Io } from './context.js';
import { manualPage, overview, usageLine } from './help.js';
import { cliVersion } from './version.js';

const EXIT = { ok: 0, refused: 1, usage: 2, notLoggedIn: 3, interrupted: 130 } as const;

/** Runs one command line and answers the exit code; never throws. */
export async function run(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(`${usageLine(undefined)}\n`);
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h') {
    io.stdout.write(overview(COMMANDS));
    return EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`cin ${cliVersion()}\n`);
    return EXIT.ok;
  }
  if (name === 'help') return help(rest, io);
  const command = findCommand(name);
  if (!command) {
    io.stderr.write(`cin: unknown command "${name}"\n${usageLine(undefined)}\n`);
    return EXIT.usage;
  }
  let ctx: Context;
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
    ctx = new Context(command, values, positionals, io);
  } catch (error) {
    io.stderr.write(`cin ${command.name}: ${(error as Error).message}\n${usageLine(command)}\n`);
    return EXIT.usage;
  }
  const machine = (['json', 'ndjson', 'quiet'] as const).filter((flag) => ctx.flag(flag));
  const listOnly = machine.find((flag) => flag !== 'json');
  if (listOnly && !command.lists) {
    io.stderr.write(`cin ${command.name}: --${listOnly} is for lists (ls, search, projects, filters, channels); use --json\n${usageLine(command)}\n`);
    return EXIT.usage;
  }
  if (machine.length > 1) {
    io.stderr.write(`cin ${command.name}: --${machine[0]} and --${machine[1]} do not go together: pick one output\n${usageLine(command)}\n`);
    return EXIT.usage;
  }
  if (ctx.flag('help')) {
    io.stdout.write(manualPage(command));
    return EXIT.ok;
  }
  try {
    return await command.run(ctx);
  } catch (error) {
    return report(error, command, io);
  }
}

function help(rest: string[], io: Io): number {
  if (rest.length === 0) {
    io.stdout.write(overview(COMMANDS));
    return EXIT.ok;
  }
  const command = rest.length === 1 ? findCommand(rest[0]!) : undefined;
  if (!command) {
    io.stderr.write(`cin help: no command "${rest.join(' ')}"\n${usageLine(undefined)}\n`);
    return EXIT.usage;
  }
  io.stdout.write(manualPage(command));
  return EXIT.ok;
}

function report(error: unknown, command: Command, io: Io): number {
  const say = (line: string) => io.stderr.write(`${line}\n`);
  if (io.signal.aborted) {
    say('cin: interrupted');
    return EXIT.interrupted;
  }
  if (error instanceof UsageError) {
    say(`cin ${command.name}: ${error.message}\n${usageLine(command)}`);
    return EXIT.usage;
  }
  if (error instanceof NotLoggedIn) {
    say(error.message);
    return EXIT.notLoggedIn;
  }
  if (error instanceof ApiError && error.status === 401) {
    // A revoked, expired or unknown key: as good as not logged in, and said so.
    say(
      io.env.CAPTURE_INBOX_TOKEN
        ? 'error unauthorized: the server does not accept the key in CAPTURE_INBOX_TOKEN (revoked, expired or unknown): set another, or unset it and run cin login'
        : 'error unauthorized: the server does not accept the saved key (revoked, expired or unknown): run cin login',
    );
    return EXIT.notLoggedIn;
  }
  if (error instanceof ApiError) {
    say(`error ${error.error}: ${error.message}`);
    return EXIT.refused;
  }
  if (error instanceof NetworkError) {
    say(`error unreachable: ${error.message}`);
    return EXIT.refused;
  }
  if (error instanceof CliError) {
    say(`error ${error.code}: ${error.message}`);
    return EXIT.refused;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  say(`error ${typeof code === 'string' ? code.toLowerCase() : 'failed'}: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.refused;
}
