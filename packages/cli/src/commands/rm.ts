import type { Command } from '../command.js';
import { shortId } from '../format.js';
import { resolveItemId } from '../resolve.js';
import { oneId } from './item-command.js';

export const rm: Command = {
  name: 'rm',
  summary: 'delete an item (and its subtasks)',
  usage: 'cin rm ID',
  manual: `Deletes the item and its subtasks for good. To keep it out of sight instead, use cin archive.

Example:
  cin rm 3fa9c2e1`,
  options: {},
  async run(ctx) {
    const given = oneId(ctx);
    const inbox = await ctx.client();
    const id = await resolveItemId(inbox, given);
    await inbox.items.delete(id);
    if (ctx.json) ctx.printJson({ deleted: id });
    else ctx.print(`deleted   ${shortId(id)}`);
    return 0;
  },
};
