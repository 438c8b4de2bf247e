/** How far the wall clock of `zone` is ahead of UTC at `at`, in milliseconds. */
function offsetMs(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - (at.getTime() - at.getUTCMilliseconds());
}

/**
 * The instant the day `days` after today begins in `zone` (its local midnight), so "today" and
 * "this week" mean the user's days, not UTC's. The offset is read twice: midnight may fall on the
 * other side of a DST change from now.
 */
export function startOfLocalDay(now: Date, zone: string, days = 0): Date {
  const wallNow = new Date(now.getTime() + offsetMs(now, zone));
  const wallMidnight = Date.UTC(wallNow.getUTCFullYear(), wallNow.getUTCMonth(), wallNow.getUTCDate() + days);
  const first = wallMidnight - offsetMs(new Date(wallMidnight), zone);
  return new Date(wallMidnight - offsetMs(new Date(first), zone));
}
