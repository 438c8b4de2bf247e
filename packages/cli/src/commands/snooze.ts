import { UsageError, type Command } from '../command.js';
import { dueAt } from '../due.js';
import { formatDue, shortId } from '../format.js';
import { resolveItemId } from '../resolve.js';

const DURATION = /^(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?)$/i;
const MINUTES: Record<string, number> = { m: 1, h: 60, d: 1440 };

export const snooze: Command = {
  name: 'snooze',
  summary: 'remind again later',
  usage: 'cin snooze ID DURATION',
  manual: `Sets the item's reminder to later: DURATION is 30m, 2h or 1d from now (at most 7 days), or a
time in words ("tomorrow 9am") or ISO 8601, read in your time zone by the server. Prints the new
reminder in your time zone; the due date does not change.

Example:
  cin snooze 3fa9c2e1 2h`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length < 2) throw new UsageError('an item ID and a DURATION are required');
    const [given, ...rest] = ctx.positionals;
    const when = rest.join(' ');
    const inbox = await ctx.client();
    const m = DURATION.exec(when.trim());
    let input: { minutes: number } | { until: string };
    if (m) {
      input = { minutes: Number(m[1]) * MINUTES[m[2]!.charAt(0).toLowerCase()]! };
    } else {
      const until = await dueAt(inbox, when);
      if (until === null) throw new UsageError(`"${when}" is not a duration (30m, 2h, 1d) or a time`);
      input = { until };
    }
    const item = await inbox.reminders.snooze(await resolveItemId(inbox, given!), input);
    if (ctx.json) {
      ctx.printJson(item);
      return 0;
    }
    // What changed is the reminder, so that is what is said (the due date stays as it was).
    const { timezone } = await inbox.me.get();
    const reminder = item.remind_at ? `${formatDue(item.remind_at, timezone)} (${timezone})` : 'none';
    ctx.print(`${'snoozed'.padEnd(8)}  ${shortId(item.id)}  ${item.title ?? '(untitled)'}  reminder ${reminder}`);
    return 0;
  },
};
