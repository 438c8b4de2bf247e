import type { ItemPatch } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import { dueAt } from '../due.js';
import { resolveItemId, resolveProject } from '../resolve.js';
import { oneId, printItem } from './item-command.js';

export const edit: Command = {
  name: 'edit',
  summary: 'change an item (title, due date, project, tags)',
  usage: 'cin edit ID [--title T] [--due WHEN] [--project NAME] [--tag T]...',
  manual: `Changes what the flags name and leaves the rest as it is.

  --title T         the new title
  --due WHEN        ISO 8601 or plain words ("next monday", "fri 3pm"), read in your time zone by
                    the server; "none" clears the due date
  --project NAME    move it to this project (name, case-insensitive, or id)
  --tag T           the tags, replacing the ones it has; repeat for more

Example:
  cin edit 3fa9c2e1 --due "next monday 9am" --tag errand --tag home`,
  options: {
    title: { type: 'string' },
    due: { type: 'string' },
    project: { type: 'string' },
    tag: { type: 'string', multiple: true },
  },
  async run(ctx) {
    const given = oneId(ctx);
    const title = ctx.string('title');
    const due = ctx.string('due');
    const project = ctx.string('project');
    const tags = ctx.strings('tag');
    if (title === undefined && due === undefined && project === undefined && tags.length === 0)
      throw new UsageError('nothing to change: give --title, --due, --project or --tag');
    const inbox = await ctx.client();
    const patch: ItemPatch = {
      ...(title !== undefined ? { title } : {}),
      ...(due !== undefined ? { due_at: await dueAt(inbox, due) } : {}),
      ...(project !== undefined ? { project_id: (await resolveProject(inbox, project)).id } : {}),
      ...(tags.length > 0 ? { tags } : {}),
    };
    const item = await inbox.items.update(await resolveItemId(inbox, given), patch);
    await printItem(ctx, inbox, item, 'edited');
    return 0;
  },
};
