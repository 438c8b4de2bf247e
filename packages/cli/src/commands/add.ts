import type { CaptureInput } from '@capture-inbox/sdk';
import { captureOrWarn, learnQuickAddProject, placeUnderParent, nameFiledProject, planCapture, printCaptured } from '../capture-flow.js';
import { UsageError, type Command } from '../command.js';
import { readDue } from '../due.js';
import { rowContext } from '../resolve.js';
import { unknownProjectNotes } from '../unknown-projects.js';
import { addSplit } from './add-split.js';
import { quickAddLines } from './quick-add-preview.js';

export const add: Command = {
  name: 'add',
  summary: 'capture a todo or note',
  usage:
    'cin add [TEXT...] [--raw | --dry-run] [--note] [--organize] [--project NAME | --parent ID] [--due WHEN] [--tag T]...\n' +
    '       cin add --split [TEXT | -] [--raw | --dry-run] [--organize] [--project NAME] [--tag T]...',
  manual: `Captures TEXT (the words joined by spaces) as a new item: the first line is the title, the rest
its Markdown body. Without TEXT, or with "-", the text is read from stdin. Prints the new item:
short id, title, project and due date, from the capture's own answer (a capture-only key is enough
unless --project NAME, which needs read, or --tag, which needs write: those are checked first).

Quick add reads the first line: #Project (an existing one; #"Two words"), @tag, dates and times
("tomorrow 5pm", "fri eod") and repeats ("every monday 9am", "every! 2 weeks"), each cut from the
title. Flags given explicitly win over what the text says. A #Name no project has stays in the
title (quick add makes no project), and a note on stderr names the command that makes it
(cin projects add Name); tags are made as they are used.

  --split           a list as several items (brain dump): one item a line (list markers
                    removed, "[x]" done), a line ending in ":" the parent of the lines indented
                    or bulleted under it, a one-line text split at "; ". Each item is read with
                    quick add; --project and --tag apply to every item, at most 100 items;
                    with --organize, a server with an AI model may split prose too (Pro)
  --raw             store the text as typed (no quick add)
  --dry-run         print what quick add understands (each span, then the fields), or with
                    --split the items, and store nothing
  --note            a note rather than a todo
  --organize        let the server's organizer pick type, project and due date from the text (Pro;
                    on Free the text is captured as typed, with a warning)
  --project NAME    the project's name (case-insensitive) or id; default: Inbox
  --parent ID       a subtask of this item (short or whole id), in its project; needs the read
                    and write scopes
  --due WHEN        ISO 8601 or plain words ("tomorrow 5pm", "fri eod"), read in your time zone
                    by the server, with the organizer's rules
  --tag T           a tag; repeat for more

Examples:
  cin add buy oat milk --due "tomorrow 5pm" --tag errand
  cin add 'Call Sam friday 3pm #Work @calls' --dry-run
  cin add "book the venue" --parent 3fa9c2e1
  git log -1 --format=%B | cin add --note --project Work
  pbpaste | cin add --split --dry-run`,
  options: {
    split: { type: 'boolean' },
    raw: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    note: { type: 'boolean' },
    organize: { type: 'boolean' },
    project: { type: 'string' },
    parent: { type: 'string' },
    due: { type: 'string' },
    tag: { type: 'string', multiple: true },
  },
  async run(ctx) {
    const words = ctx.positionals;
    let text = words.length === 0 || (words.length === 1 && words[0] === '-') ? undefined : words.join(' ');
    if (text === undefined) {
      if (ctx.io.stdin.isTTY) throw new UsageError('no text: give TEXT or pipe it in');
      text = await ctx.readStdin();
    }
    if (text.trim() === '') throw new UsageError('the text is empty');
    if (ctx.flag('raw') && ctx.flag('dry-run')) throw new UsageError('--raw stores the text as typed; --dry-run shows what quick add reads: give one');
    const parentGiven = ctx.string('parent');
    if (parentGiven !== undefined && ctx.string('project') !== undefined)
      throw new UsageError("a subtask lives in its parent's project: give --parent or --project");
    const inbox = await ctx.client();
    if (ctx.flag('split')) return addSplit(ctx, inbox, text);
    if (ctx.flag('dry-run')) {
      const parsed = await inbox.items.parse(text);
      if (ctx.json) ctx.printJson(parsed);
      else for (const line of quickAddLines(parsed, await rowContext(inbox))) ctx.print(line);
      for (const line of unknownProjectNotes(parsed)) ctx.note(line);
      return 0;
    }
    const due = ctx.string('due');
    const tags = ctx.strings('tag');
    // Tags go in with the capture (capture scope); a project name needs read, checked before capturing.
    const plan = await planCapture(ctx, inbox, { project: ctx.string('project'), tags: [], ...(parentGiven !== undefined ? { parent: parentGiven } : {}) });
    // Quick add may file it by #Name: /parse (capture scope, stores nothing) says which, for the
    // printed row, and which #Name it could not file under, for a note on stderr.
    const parsed = ctx.flag('raw') ? undefined : await inbox.items.parse(text);
    if (parsed && plan.projectId === undefined && !ctx.json) learnQuickAddProject(plan, parsed);
    const input: CaptureInput = {
      text,
      ...(ctx.flag('raw') ? {} : { parse: true }),
      ...(tags.length > 0 ? { tags } : {}),
      ...(ctx.flag('note') ? { type: 'note' as const } : {}),
      ...(ctx.flag('organize') ? { organize: true } : {}),
      ...(plan.projectId !== undefined ? { project_id: plan.projectId } : {}),
    };
    if (due !== undefined) {
      const read = await readDue(inbox, due);
      if (read.due_at !== null) {
        input.due_at = read.due_at;
        input.all_day = read.all_day;
      }
    }
    // From here on nothing may fail the command: the item exists (capture-flow.ts says why).
    const captured = await captureOrWarn(ctx, inbox, input);
    const item = plan.parentId === undefined ? captured : await placeUnderParent(inbox, captured, plan.parentId);
    if (!ctx.json) await nameFiledProject(inbox, item, plan);
    printCaptured(ctx, item, plan);
    if (parsed) for (const line of unknownProjectNotes(parsed)) ctx.note(line);
    // Why the organizer filed it (or left it): a wrong filing is understandable, and moving it teaches.
    if (!ctx.json && item.ai?.reason) ctx.print(`${'why'.padEnd(8)}  ${item.ai.reason}`);
    return 0;
  },
};
