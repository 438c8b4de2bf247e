import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import type { Services } from '../container.js';
import { ADMIN_COMMAND_NAMES, ADMIN_USAGE, COMMANDS, PRINTED, UsageError, type AdminCommand, type Flags } from './admin-commands.js';

/** The admin CLI: never starts HTTP, prints JSON lines, exits non-zero with one line on stderr. */
async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      plan: { type: 'string' },
      label: { type: 'string' },
      'key-id': { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
      to: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (command === 'help' || values.help === true) {
    process.stdout.write(`${ADMIN_USAGE}\n`);
    return;
  }
  if (command === '') throw new UsageError('no command given; run "admin --help" for the list');
  if (!ADMIN_COMMAND_NAMES.includes(command)) throw new UsageError(`unknown command "${command}"; run "admin --help" for the list`);
  const run = COMMANDS[command];
  const flags = asFlags(values);
  // Before the database is opened or migrated: a bad flag is answered at once and changes nothing.
  run?.check(flags);
  if (command === 'backup' && !values.to) throw new UsageError('--to is required');

  // The service's modules only now: a usage error above is answered without loading them (about a second of CPU).
  const [{ loadConfig, loadEnvFile }, { createServices }, { storagePortsFor }, { backupDatabase }, { openDatabase }, { migrateToLatest }] = await Promise.all([
    import('../config.js'),
    import('../container.js'),
    import('../storage-ports.js'),
    import('../db/backup.js'),
    import('../open-database.js'),
    import('../db/migrate.js'),
  ]);
  loadEnvFile();
  const config = loadConfig();
  if (command === 'backup' && values.to) {
    // No migration first: a backup copies the database as it is.
    process.stdout.write(`${JSON.stringify(await backupDatabase(config.databaseUrl, values.to))}\n`);
    return;
  }
  const handle = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(handle.db);
    const result = run
      ? await runCommand(run, createServices({ db: handle, ports: storagePortsFor(handle.dialect), config }), flags)
      : { applied: applied.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    if (result !== PRINTED) process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await handle.db.destroy();
  }
}

/** Switches become the flag's name with an empty value, so every command reads one shape. */
function asFlags(values: Record<string, string | boolean | undefined>): Flags {
  return Object.fromEntries(Object.entries(values).flatMap(([k, v]) => (v === undefined || v === false ? [] : [[k, v === true ? '' : v]])));
}

/** The services are built as the server builds them (same limits, Redis, signup), and closed again so no connection keeps the CLI alive. */
async function runCommand(run: AdminCommand, services: Services, flags: Flags): Promise<unknown> {
  try {
    return await run.run(services, flags, {
      readStdin: () => text(process.stdin),
      stdout: process.stdout,
      warn: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    await services.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`admin: ${message.split('\n')[0]}\n`);
  process.exitCode = 1;
});
