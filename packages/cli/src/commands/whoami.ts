import { UsageError, type Command } from '../command.js';

export const whoami: Command = {
  name: 'whoami',
  summary: 'who the key belongs to (GET /me)',
  usage: 'cin whoami',
  manual: `Prints the account the key belongs to: email, plan, time zone (due dates are read and shown
in it), the server, and the key's id and scopes.

Example:
  cin whoami --json`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin whoami takes no arguments');
    const { server } = await ctx.credentials();
    const me = await (await ctx.client()).me.get();
    if (ctx.json) {
      ctx.printJson({ ...me, server });
      return 0;
    }
    const rows: Array<[string, string]> = [
      ['email', me.email],
      ['plan', me.plan],
      ['timezone', me.timezone],
      ['server', server],
      ...(me.key ? ([['key', `${me.key.id} (${me.key.scopes.join(', ')})`]] as Array<[string, string]>) : []),
    ];
    for (const [label, value] of rows) ctx.print(`${label.padEnd(8)}  ${value}`);
    return 0;
  },
};
