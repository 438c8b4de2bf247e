import type { Change } from '@capture-inbox/sdk';
import type { Command } from '../command.js';
import { shortId } from '../format.js';

/** `12:04:31 created   1a2b3c4d  Buy milk`: the time, the event, the item's short id and title. */
function changeLine(change: Change): string {
  const time = change.created_at.slice(11, 19);
  const event = change.event.replace(/^item\./, '').padEnd(11);
  const { item } = change.data;
  return `${time} ${event} ${shortId(item.id)}  ${item.title}`;
}

export const watch: Command = {
  name: 'watch',
  summary: 'print changes as they happen, until Ctrl-C',
  usage: 'cin watch [--cursor CURSOR] [--json]',
  manual: `Follows the live change stream: prints one line for each change to your items as it is
committed (a capture, an edit, done, archive, delete), from any client, until Ctrl-C. It
reconnects on its own and never prints a change twice.

  --cursor CURSOR   start after this change cursor instead of now
  --json            each change as one line of JSON (the object of GET /changes)

Times are UTC. Example:
  cin watch --json | jq -r .data.item.title`,
  options: {
    cursor: { type: 'string' },
  },
  async run(ctx) {
    const inbox = await ctx.client();
    const cursor = ctx.string('cursor');
    try {
      for await (const change of inbox.changes.stream({ signal: ctx.io.signal, ...(cursor ? { cursor } : {}) })) {
        // One line per change, also with --json (a stream has no single document to print).
        ctx.print(ctx.json ? JSON.stringify(change) : changeLine(change));
      }
    } catch (error) {
      // Ctrl-C is how watching ends.
      if (ctx.io.signal.aborted) return 0;
      throw error;
    }
    return 0;
  },
};
