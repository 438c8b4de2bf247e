import { ApiError, type CaptureInbox, type Item } from '@capture-inbox/sdk';
import { CliError, UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { itemRows } from '../format.js';
import { resolveItemId, rowContext } from '../resolve.js';

/** The ID argument of a one-item command: exactly one. */
export function oneId(ctx: Context): string {
  if (ctx.positionals.length !== 1) throw new UsageError(ctx.positionals.length === 0 ? 'an item ID is required' : 'one item ID only');
  return ctx.positionals[0]!;
}

/** The verb before a printed item ("done", "archived") and its gap. */
const VERB_WIDTH = 10;

/** Prints one item: its JSON with --json, else its aligned row after a short verb ("done", "archived"). */
export async function printItem(ctx: Context, inbox: CaptureInbox, item: Item, verb: string): Promise<void> {
  if (ctx.json) return ctx.printJson(item);
  const [row] = itemRows([item], await rowContext(inbox), ctx.display, VERB_WIDTH);
  ctx.print(`${verb.padEnd(VERB_WIDTH - 2)}  ${row ?? ''}`);
}

/** The message of one refused id among several, naming it when the message does not. */
function refusal(error: unknown, given: string): string | undefined {
  if (error instanceof ApiError) return `error ${error.error}: ${error.message}${error.message.includes(given) ? '' : ` (${given})`}`;
  if (error instanceof CliError) return `error ${error.code}: ${error.message}${error.message.includes(given) ? '' : ` (${given})`}`;
  return undefined;
}

/**
 * `cin done|undone|archive ID...`: one change to each item, each printed. A refused id is reported
 * on stderr and the others are still changed; any refusal makes the exit code 1. A key the server
 * does not know (401) ends the command at once: every other id would be refused the same way.
 */
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
    usage: `cin ${spec.name} ID...`,
    manual: spec.manual,
    options: {},
    async run(ctx) {
      if (ctx.positionals.length === 0) throw new UsageError('an item ID is required');
      const inbox = await ctx.client();
      if (ctx.positionals.length === 1) {
        const item = await spec.change(inbox, await resolveItemId(inbox, ctx.positionals[0]!));
        await printItem(ctx, inbox, item, spec.verb);
        return 0;
      }
      const changed: Item[] = [];
      let failed = 0;
      for (const given of ctx.positionals) {
        try {
          changed.push(await spec.change(inbox, await resolveItemId(inbox, given)));
        } catch (error) {
          const line = refusal(error, given);
          if (line === undefined || (error instanceof ApiError && error.status === 401)) throw error;
          ctx.note(line);
          failed += 1;
        }
      }
      if (ctx.json) ctx.printJson(changed);
      else if (changed.length > 0) {
        const rows = itemRows(changed, await rowContext(inbox), ctx.display, VERB_WIDTH);
        for (const row of rows) ctx.print(`${spec.verb.padEnd(VERB_WIDTH - 2)}  ${row}`);
      }
      return failed > 0 ? 1 : 0;
    },
  };
}
