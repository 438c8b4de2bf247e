import { z } from 'zod';
import { guarded, toolResult } from '../results.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const CurrentTime = z.object({
  timezone: z.string(),
  now: z.string().describe('local, with offset'),
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

export function registerContextTools(tools: ToolCatalog, ctx: ToolContext, clock: () => number): void {
  tools.add(
    'get_current_time',
    {
      description: "The user's time zone, local date-time and weekday now: read it before writing a date.",
      input: z.object({}),
      output: CurrentTime,
      hints: { readOnlyHint: true },
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
