import type { ItemPatch } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import { dueAt } from '../due.js';
import { readEvery } from '../recurrence-words.js';
import { resolveItemId, resolveProject } from '../resolve.js';
import { oneId, printItem } from './item-command.js';

export const edit: Command = {
  name: 'edit',
  summary: 'change an item (title, due date, project, tags, recurrence, reminder)',
  usage: 'cin edit ID [--title T] [--due WHEN] [--project NAME] [--tag T]... [--every RULE] [--remind WHEN]',
  manual: `Changes what the flags name and leaves the rest as it is.

  --title T         the new title
  --due WHEN        ISO 8601 or plain words ("next monday", "fri 3pm"), read in your time zone by
                    the server; "none" clears the due date
  --project NAME    move it to this project (name, case-insensitive, or id)
  --tag T           the tags, replacing the ones it has; repeat for more
  --every RULE      make it repeat: quick-add words ("every monday 9am", "every! 3 days" counts
                    from completion) or an RRULE (FREQ=WEEKLY;BYDAY=MO); "none" ends it. An item
                    without a due date gets the rule's first occurrence
  --remind WHEN     when to remind you, like --due; "none" clears it

Example:
  cin edit 3fa9c2e1 --due "next monday 9am" --tag errand --tag home`,
  options: {
    title: { type: 'string' },
    due: { type: 'string' },
    project: { type: 'string' },
    tag: { type: 'string', multiple: true },
    every: { type: 'string' },
    remind: { type: 'string' },
  },
  async run(ctx) {
    const given = oneId(ctx);
    const title = ctx.string('title');
    const due = ctx.string('due');
    const project = ctx.string('project');
    const tags = ctx.strings('tag');
    const every = ctx.string('every');
    const remind = ctx.string('remind');
    if (title === undefined && due === undefined && project === undefined && tags.length === 0 && every === undefined && remind === undefined)
      throw new UsageError('nothing to change: give --title, --due, --project, --tag, --every or --remind');
    const inbox = await ctx.client();
    const id = await resolveItemId(inbox, given);
    const patch: ItemPatch = {
      ...(title !== undefined ? { title } : {}),
      ...(due !== undefined ? { due_at: await dueAt(inbox, due) } : {}),
      ...(project !== undefined ? { project_id: (await resolveProject(inbox, project)).id } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(remind !== undefined ? { remind_at: await dueAt(inbox, remind) } : {}),
    };
    if (every !== undefined) {
      const { recurrence, firstDue } = await readEvery(inbox, every);
      patch.recurrence = recurrence;
      // A rule needs a due date: an item without one (and no --due) starts at the first occurrence.
      if (recurrence && due === undefined && firstDue && (await inbox.items.get(id)).due_at === null) patch.due_at = firstDue;
    }
    const item = await inbox.items.update(id, patch);
    await printItem(ctx, inbox, item, 'edited');
    return 0;
  },
};
