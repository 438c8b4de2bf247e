import { ApiError, type CaptureInbox } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';

/**
 * The email-in address, null when the server has it off, undefined when it cannot be asked: a key
 * without read (403) or a server from before email-in (404). whoami still answers then.
 */
async function emailAddress(client: CaptureInbox): Promise<string | null | undefined> {
  try {
    return (await client.me.email()).address;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return undefined;
    throw error;
  }
}

export const whoami: Command = {
  name: 'whoami',
  summary: 'who the key belongs to (GET /me)',
  usage: 'cin whoami',
  manual: `Prints the account the key belongs to: email, plan, time zone (due dates are read and shown
in it), the server, the email-in address (mail to it becomes an item; shown when the server has
email-in on and the key can read), and the key's id and scopes.

Example:
  cin whoami --json`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin whoami takes no arguments');
    const { server } = await ctx.credentials();
    const client = await ctx.client();
    const me = await client.me.get();
    const emailIn = await emailAddress(client);
    if (ctx.json) {
      ctx.printJson({ ...me, server, ...(emailIn !== undefined ? { email_in: emailIn } : {}) });
      return 0;
    }
    const rows: Array<[string, string]> = [
      ['email', me.email],
      ['plan', me.plan],
      ['timezone', me.timezone],
      ['server', server],
      ...(emailIn ? ([['email-in', emailIn]] as Array<[string, string]>) : []),
      ...(me.key ? ([['key', `${me.key.id} (${me.key.scopes.join(', ')})`]] as Array<[string, string]>) : []),
    ];
    for (const [label, value] of rows) ctx.print(`${label.padEnd(8)}  ${value}`);
    return 0;
  },
};
