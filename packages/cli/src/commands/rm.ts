import type { Command } from '../command.js';
import { canConfirm, confirm, YES_OPTION } from '../confirm.js';
import { shortId } from '../format.js';
import { resolveItemId } from '../resolve.js';
import { oneId } from './item-command.js';

export const rm: Command = {
  name: 'rm',
  summary: 'delete an item (and its subtasks)',
  usage: 'cin rm ID [--yes]',
  manual: `Deletes the item and its subtasks for good. To keep it out of sight instead, use cin archive.
On a terminal cin asks first; elsewhere (a script, a pipe) it refuses (exit 2) unless --yes.

  -y, --yes         delete without asking

Example:
  cin rm 3fa9c2e1 --yes`,
  options: { ...YES_OPTION },
  async run(ctx) {
    const given = oneId(ctx);
    canConfirm(ctx, `not deleting ${given}`);
    const inbox = await ctx.client();
    const id = await resolveItemId(inbox, given);
    if (!ctx.flag('yes')) {
      const item = await inbox.items.get(id);
      await confirm(ctx, `Delete "${item.title ?? '(untitled)'}" (${shortId(id)}) and its subtasks for good?`, `not deleting ${given}`);
    }
    await inbox.items.delete(id);
    if (ctx.json) ctx.printJson({ deleted: id });
    else ctx.print(`deleted   ${shortId(id)}`);
    return 0;
  },
};
