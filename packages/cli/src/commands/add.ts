import type { CaptureInput } from '@capture-inbox/sdk';
import { captureOrWarn, planCapture, printCaptured, tagCaptured } from '../capture-flow.js';
import { UsageError, type Command } from '../command.js';
import { dueAt } from '../due.js';

export const add: Command = {
  name: 'add',
  summary: 'capture a todo or note',
  usage: 'cin add [TEXT...] [--note] [--organize] [--project NAME] [--due WHEN] [--tag T]...',
  manual: `Captures TEXT (the words joined by spaces) as a new item: the first line is the title, the rest
its Markdown body. Without TEXT, or with "-", the text is read from stdin. Prints the new item:
short id, title, project and due date, from the capture's own answer (a capture-only key is enough
unless --project NAME, which needs read, or --tag, which needs write: those are checked first).

  --note            a note rather than a todo
  --organize        let the server's organizer pick type, project and due date from the text (Pro;
                    on Free the text is captured as typed, with a warning)
  --project NAME    the project's name (case-insensitive) or id; default: Inbox
  --due WHEN        ISO 8601 or plain words ("tomorrow 5pm", "fri eod"), read in your time zone
                    by the server, with the organizer's rules
  --tag T           a tag; repeat for more

Examples:
  cin add buy oat milk --due "tomorrow 5pm" --tag errand
  git log -1 --format=%B | cin add --note --project Work`,
  options: {
    note: { type: 'boolean' },
    organize: { type: 'boolean' },
    project: { type: 'string' },
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
    const inbox = await ctx.client();
    const due = ctx.string('due');
    const tags = ctx.strings('tag');
    const plan = await planCapture(ctx, inbox, { project: ctx.string('project'), tags });
    const input: CaptureInput = {
      text,
      ...(ctx.flag('note') ? { type: 'note' as const } : {}),
      ...(ctx.flag('organize') ? { organize: true } : {}),
      ...(plan.projectId !== undefined ? { project_id: plan.projectId } : {}),
    };
    if (due !== undefined) {
      const at = await dueAt(inbox, due);
      if (at !== null) input.due_at = at;
    }
    // From here on nothing may fail the command: the item exists (capture-flow.ts says why).
    const item = await tagCaptured(ctx, inbox, await captureOrWarn(ctx, inbox, input), tags);
    printCaptured(ctx, item, plan);
    return 0;
  },
};
