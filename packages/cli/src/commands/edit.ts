import type { ItemPatch } from '@capture-inbox/sdk';
import { CliError, UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { editInEditor } from '../editor.js';
import { dueAt, readDue } from '../due.js';
import { readEvery } from '../recurrence-words.js';
import { resolveItemId, resolveProject } from '../resolve.js';
import { oneId, printItem } from './item-command.js';

/** `cin edit ID` alone: title and notes in the editor; only what changed is sent. */
async function editWithEditor(ctx: Context, given: string): Promise<number> {
  const inbox = await ctx.client();
  const item = await inbox.items.get(await resolveItemId(inbox, given));
  const before = { title: item.title ?? '', notes: item.content_md?.trimEnd() || null };
  const after = await editInEditor(ctx, before);
  if (after.title === '') throw new CliError('empty_title', 'the title is empty; nothing was changed');
  const patch: ItemPatch = {
    ...(after.title !== before.title ? { title: after.title } : {}),
    ...(after.notes !== before.notes ? { content_md: after.notes } : {}),
  };
  if (Object.keys(patch).length === 0) {
    if (ctx.json) ctx.printJson(item);
    else ctx.note('nothing changed');
    return 0;
  }
  await printItem(ctx, inbox, await inbox.items.update(item.id, patch), 'edited');
  return 0;
}

export const edit: Command = {
  name: 'edit',
  summary: 'change an item (title, notes, due date, project, tags, recurrence, reminder)',
  usage: 'cin edit ID [--title T] [--notes TEXT] [--due WHEN] [--project NAME] [--tag T]... [--every RULE] [--remind WHEN]',
  manual: `Changes what the flags name and leaves the rest as it is. Without any of them, opens your
editor ($VISUAL, else $EDITOR, else vi) on the title (first line) and notes (after a blank line);
what you change is saved when the editor exits, and nothing is sent when nothing changed. An empty
title, or an editor that fails, changes nothing.

  --title T         the new title
  --notes TEXT      the new notes (the Markdown body); "" clears them
  --due WHEN        ISO 8601 or plain words ("next monday", "fri 3pm"), read in your time zone by
                    the server; "none" clears the due date
  --project NAME    move it to this project (name, case-insensitive, or id)
  --tag T           the tags, replacing the ones it has; repeat for more
  --every RULE      make it repeat: quick-add words ("every monday 9am", "every! 3 days" counts
                    from completion) or an RRULE (FREQ=WEEKLY;BYDAY=MO); "none" ends it. An item
                    without a due date gets the rule's first occurrence
  --remind WHEN     when to remind you, like --due; "none" clears it

Example:
  cin edit 3fa9c2e1 --due "next monday 9am" --tag errand --tag home
  EDITOR=nano cin edit 3fa9c2e1`,
  options: {
    title: { type: 'string' },
    notes: { type: 'string' },
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
    const notes = ctx.string('notes');
    if (
      title === undefined &&
      notes === undefined &&
      due === undefined &&
      project === undefined &&
      tags.length === 0 &&
      every === undefined &&
      remind === undefined
    )
      return editWithEditor(ctx, given);
    if (title !== undefined && title.trim() === '') throw new UsageError('--title cannot be empty');
    const inbox = await ctx.client();
    const id = await resolveItemId(inbox, given);
    const patch: ItemPatch = {
      ...(title !== undefined ? { title } : {}),
      ...(notes !== undefined ? { content_md: notes.trim() === '' ? null : notes } : {}),
      // A day without a time is all-day, a time is timed; "none" clears the date (and all_day with it).
      ...(due !== undefined ? await readDue(inbox, due).then((read) => (read.due_at === null ? { due_at: null } : read)) : {}),
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
