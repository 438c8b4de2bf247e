import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, toolResult } from '../results.js';
import type { ToolContext } from '../tool-context.js';

const CurrentTime = z.object({
  timezone: z.string().describe("the user's IANA time zone"),
  now: z.string().describe("the user's local date and time, ISO 8601 with their offset"),
  now_utc: z.string(),
  weekday: z.string(),
});

/** `2026-11-28T09:00:00+01:00` and the weekday: the instant `at` as a wall clock in `zone`. */
function localNow(at: Date, zone: string): { now: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMin = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { now: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`, weekday: parts.weekday ?? '' };
}

export function registerContextTools(server: McpServer, ctx: ToolContext, clock: () => number): void {
  server.registerTool(
    'get_current_time',
    {
      title: "The user's time",
      description:
        "The user's time zone and their local date, time and weekday now. Use it before writing a due_at or remind_at, so that " +
        '"tomorrow 9am" means 9 in the morning where the user is.',
      inputSchema: z.object({}),
      outputSchema: CurrentTime,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async () =>
      guarded(async () => {
        const timezone = (await ctx.timeZone()) ?? 'UTC';
        const at = new Date(clock());
        const { now, weekday } = localNow(at, timezone);
        return toolResult(`It is ${weekday} ${now} in ${timezone}.`, CurrentTime, { timezone, now, now_utc: at.toISOString(), weekday });
      }),
  );
}
