import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createServices } from '../container.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { COMMANDS, UsageError } from './admin-commands.js';

const USAGE = `usage: admin user create --email E [--password P] [--plan free|pro]
       admin user set-plan --email E --plan free|pro
       admin key create --email E [--label L] [--scopes read,capture,write,webhooks] [--expires-in-days N]
       admin key revoke --key-id K
       admin migrate`;

/** The admin CLI: never starts HTTP, prints one JSON line, exits non-zero with one line on stderr. */
async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      plan: { type: 'string' },
      label: { type: 'string' },
      'key-id': { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  if (command === '') throw new UsageError('no command given; run "admin help" for the list');
  if (command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const run = COMMANDS[command];
  if (command !== 'migrate' && !run) throw new UsageError(`unknown command "${command}"; run "admin help" for the list`);

  const handle = createDb(loadConfig().databaseUrl);
  try {
    const applied = await migrateToLatest(handle.db);
    const result = run
      ? await run(createServices(handle), values)
      : { applied: applied.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await handle.db.destroy();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`admin: ${message.split('\n')[0]}\n`);
  process.exitCode = 1;
});
