/**
 * Wall-clock time in an IANA zone, and back. The organizer reasons in the user's wall clock
 * ("tomorrow 09:00") and stores instants; the offset is looked up for the target day, so a date
 * across a daylight-saving change still lands on the wall time the user meant.
 */
export interface WallTime {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's wall clock at an instant (seconds dropped). */
export function wallTimeAt(zone: string, instant: Date): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute! };
}

/** Minutes the zone is ahead of UTC at an instant (e.g. 60 for Berlin in winter). */
export function offsetMinutesAt(zone: string, instant: Date): number {
  const w = wallTimeAt(zone, instant);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const truncated = Math.floor(instant.getTime() / 60_000) * 60_000;
  return Math.round((asUtc - truncated) / 60_000);
}

/**
 * The instant a wall time names in the zone. A wall time skipped by a spring-forward gap maps to
 * the instant one offset-change later, as clocks do; a repeated one takes its first occurrence.
 */
export function instantOf(zone: string, wall: WallTime): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // Two passes converge for every real zone: the offset of the guess, then of the corrected guess.
  const first = asUtc - offsetMinutesAt(zone, new Date(asUtc)) * 60_000;
  const second = asUtc - offsetMinutesAt(zone, new Date(first)) * 60_000;
  const earlier = Math.min(first, second);
  const w = wallTimeAt(zone, new Date(earlier));
  return new Date(w.hour === wall.hour && w.minute === wall.minute ? earlier : Math.max(first, second));
}

/** Calendar arithmetic on a wall date, independent of any zone. */
export function addDays(wall: WallTime, days: number): WallTime {
  const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(wall: WallTime): number {
  return new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay();
}

/** Compares the calendar days of two wall times: negative, 0 or positive. */
export function compareDays(a: WallTime, b: WallTime): number {
  return Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day);
}
