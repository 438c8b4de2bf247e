import type { CaptureInbox, Item } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { itemRows } from '../format.js';
import { resolveItemId, rowContext } from '../resolve.js';

/** The ID argument of a one-item command: exactly one. */
export function oneId(ctx: Context): string {
  if (ctx.positionals.length !== 1) throw new UsageError(ctx.positionals.length === 0 ? 'an item ID is required' : 'one item ID only');
  return ctx.positionals[0]!;
}

/** Prints one item: its JSON with --json, else its aligned row after a short verb ("done", "archived"). */
export async function printItem(ctx: Context, inbox: CaptureInbox, item: Item, verb: string): Promise<void> {
  if (ctx.json) return ctx.printJson(item);
  const [row] = itemRows([item], await rowContext(inbox));
  ctx.print(`${verb.padEnd(8)}  ${row ?? ''}`);
}

/** `cin done|undone|archive ID`: one change to one item, which is then printed. */
export function itemChange(spec: {
  name: string;
  summary: string;
  manual: string;
  verb: string;
  change: (inbox: CaptureInbox, id: string) => Promise<Item>;
}): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: `cin ${spec.name} ID`,
    manual: spec.manual,
    options: {},
    async run(ctx) {
      const given = oneId(ctx);
      const inbox = await ctx.client();
      const item = await spec.change(inbox, await resolveItemId(inbox, given));
      await printItem(ctx, inbox, item, spec.verb);
      return 0;
    },
  };
}
