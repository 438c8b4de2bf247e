import type { Command } from '../command.js';
import { itemDetails } from '../format.js';
import { resolveItemId, rowContext } from '../resolve.js';
import { oneId } from './item-command.js';

export const show: Command = {
  name: 'show',
  summary: 'one item in full',
  usage: 'cin show ID',
  manual: `Prints the item: title, id, project, type, status, due date in your time zone, tags, and its
Markdown body. With --json, the item as the API answers it.

Example:
  cin show 3fa9c2e1`,
  options: {},
  async run(ctx) {
    const given = oneId(ctx);
    const inbox = await ctx.client();
    const item = await inbox.items.get(await resolveItemId(inbox, given));
    if (ctx.json) ctx.printJson(item);
    else for (const line of itemDetails(item, await rowContext(inbox))) ctx.print(line);
    return 0;
  },
};
