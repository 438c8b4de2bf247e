import { UsageError, type Command } from '../command.js';
import { removeLogin } from '../config-file.js';

export const logout: Command = {
  name: 'logout',
  summary: 'forget the saved key',
  usage: 'cin logout',
  manual: `Deletes the saved login (server, key and key id) from this machine. The key itself stays valid
on the server until you revoke it under Settings → Developer in the web app.

Example:
  cin logout`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin logout takes no arguments');
    const saved = await ctx.savedLogin().catch(() => undefined);
    const removed = await removeLogin(ctx.configPath);
    if (ctx.json) ctx.printJson({ logged_out: removed, ...(saved ? { server: saved.server, key_id: saved.key_id } : {}) });
    else if (removed && saved) ctx.print(`Forgot the key ${saved.key_id} for ${saved.server}. Revoke it in the web app's settings if it may have leaked.`);
    else ctx.print('No saved login to forget.');
    return 0;
  },
};
