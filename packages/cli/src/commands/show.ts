import type { Command } from '../command.js';
import { itemDetails, itemRows } from '../format.js';
import { resolveItemId, rowContext } from '../resolve.js';
import { subtasksOf } from '../subtasks.js';
import { oneId } from './item-command.js';

export const show: Command = {
  name: 'show',
  summary: 'one item in full, with its subtasks',
  usage: 'cin show ID',
  manual: `Prints the item: title, id, project, type, status, due date in your time zone, its repeat
(the rule, and whether it counts from the due date or from each completion) and reminder, tags, its
Markdown body, then its subtasks (one row each, as cin ls prints them, in the order the API answers
them: newest first). With --json, the item as the API answers it plus "subtasks", an array of items.

Example:
  cin show 3fa9c2e1`,
  options: {},
  async run(ctx) {
    const given = oneId(ctx);
    const inbox = await ctx.client();
    const id = await resolveItemId(inbox, given);
    const [item, subtasks] = await Promise.all([inbox.items.get(id), subtasksOf(inbox, id)]);
    if (ctx.json) {
      ctx.printJson({ ...item, subtasks });
      return 0;
    }
    const rows = await rowContext(inbox);
    for (const line of itemDetails(item, rows, ctx.display)) ctx.print(line);
    if (subtasks.length > 0) {
      ctx.print('');
      ctx.print(`Subtasks (${subtasks.length}):`);
      for (const row of itemRows(subtasks, rows, ctx.display, 2)) ctx.print(`  ${row}`);
    }
    return 0;
  },
};
