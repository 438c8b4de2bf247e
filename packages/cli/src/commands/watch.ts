import type { Change } from '@capture-inbox/sdk';
import type { Command } from '../command.js';
import { shortId } from '../format.js';

/**
 * `12:04:31 created   1a2b3c4d  Buy milk`: the time in the user's zone (as every other cin output
 * shows times), the event, the item's short id and title.
 */
function changeLine(change: Change, zone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(
    new Date(change.created_at),
  );
  const event = change.event.replace(/^item\./, '').padEnd(11);
  const { item, filter } = change.data;
  // A saved filter's change (filter.created …) names the filter: its id is not an item's.
  if (!item) return `${time} ${event} ${filter ? `filter ${filter.name}` : ''}`.trimEnd();
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

Times are in your time zone (cin whoami shows it); --json keeps the API's UTC timestamps. Example:
  cin watch --json | jq -r .data.item.title`,
  options: {
    cursor: { type: 'string' },
  },
  async run(ctx) {
    const inbox = await ctx.client();
    const cursor = ctx.string('cursor');
    // GET /me needs no scope; the zone is asked once, before the first change arrives.
    const zone = ctx.json ? 'UTC' : (await inbox.me.get()).timezone;
    try {
      for await (const change of inbox.changes.stream({ signal: ctx.io.signal, ...(cursor ? { cursor } : {}) })) {
        // One line per change, also with --json (a stream has no single document to print).
        ctx.print(ctx.json ? JSON.stringify(change) : changeLine(change, zone));
      }
    } catch (error) {
      // Ctrl-C is how watching ends.
      if (ctx.io.signal.aborted) return 0;
      throw error;
    }
    return 0;
  },
};
