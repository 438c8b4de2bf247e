import { UsageError, type Command } from '../command.js';

/** An empty list says so, and how to fill it: without a channel, reminders reach nobody. */
const NO_CHANNELS = [
  'No notification channels yet: reminders reach you only through one. Add one with',
  '  cin channels add ntfy https://ntfy.sh/YOUR-SECRET-TOPIC',
  '  cin channels add email you@example.com',
  "or turn on web push on the web app's Account › Notifications page.",
];

export const channels: Command = {
  name: 'channels',
  summary: 'notification channels for reminders',
  usage: 'cin channels [add ntfy URL [--token T] | add email ADDRESS | test ID | rm ID]',
  manual: `Where reminders go. Without arguments, lists your channels.

  cin channels add ntfy URL [--token T]   an ntfy topic (https://ntfy.sh/my-topic or your own server)
  cin channels add email ADDRESS         mail (the server needs SMTP_URL)
  cin channels test ID                   sends a test notification now
  cin channels rm ID                     deletes a channel

Web push is turned on in the web app, per browser.

Example:
  cin channels add ntfy https://ntfy.sh/my-secret-topic`,
  subcommands: ['add', 'test', 'rm'],
  lists: true,
  options: { token: { type: 'string' } },
  async run(ctx) {
    const [action, ...args] = ctx.positionals;
    const inbox = await ctx.client();
    if (action === undefined || action === 'ls') {
      const list = await inbox.channels.list();
      if (ctx.printList(list)) return 0;
      if (list.length === 0) for (const line of NO_CHANNELS) ctx.print(line);
      else for (const c of list) ctx.print(`${c.id}  ${c.kind.padEnd(7)}  ${c.url ?? c.address ?? ''}`);
      return 0;
    }
    if (action === 'add') {
      const [kind, target] = args;
      if (!target || args.length !== 2) throw new UsageError('cin channels add ntfy URL | add email ADDRESS');
      const token = ctx.string('token');
      const input =
        kind === 'ntfy'
          ? { kind: 'ntfy' as const, url: target, ...(token ? { token } : {}) }
          : kind === 'email'
            ? { kind: 'email' as const, address: target }
            : null;
      if (!input) throw new UsageError(`unknown channel kind "${kind ?? ''}": ntfy or email (web push is set up in the web app)`);
      const channel = await inbox.channels.create(input);
      if (ctx.json) ctx.printJson(channel);
      else ctx.print(`added     ${channel.id}  ${channel.kind}  ${channel.url ?? channel.address ?? ''}`);
      return 0;
    }
    if ((action === 'test' || action === 'rm') && args.length === 1) {
      const id = args[0]!;
      if (action === 'rm') {
        await inbox.channels.delete(id);
        if (ctx.json) ctx.printJson({ ok: true });
        else ctx.print(`deleted   ${id}`);
        return 0;
      }
      const result = await inbox.channels.test(id);
      if (ctx.json) ctx.printJson(result);
      else ctx.print(`${result.status === 'succeeded' ? 'sent' : 'failed'}      ${result.kind} (status ${result.last_status})`);
      return result.status === 'succeeded' ? 0 : 1;
    }
    throw new UsageError('cin channels [add ntfy URL | add email ADDRESS | test ID | rm ID]');
  },
};
