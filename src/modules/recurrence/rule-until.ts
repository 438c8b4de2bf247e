import { addDays, instantOf, type WallTime } from '../../lib/dates/zoned-time.js';

/*
 * RFC 5545 gives UNTIL three forms, and rrule's parser reads all three as UTC. Only the one ending in
 * Z is: a date-time without Z is a wall time where the series lives (the user's zone here, as each
 * occurrence is), and a date alone means "up to and including that day", so a daily 09:00 item with
 * UNTIL=20261231 still comes on 31 December in every zone.
 */
const UNTIL_PART = /(?:^|;)UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?(?:;|$)/i;

/** The last instant the rule may produce an occurrence at, or null when it has no UNTIL. */
export function untilInstant(rule: string, zone: string): Date | null {
  const m = UNTIL_PART.exec(rule);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m[4] === undefined) {
    const nextDay = addDays({ year, month, day, hour: 0, minute: 0 }, 1);
    return new Date(instantOf(zone, nextDay).getTime() - 1);
  }
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (m[7] !== '') return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const wall: WallTime = { year, month, day, hour, minute };
  return new Date(instantOf(zone, wall).getTime() + second * 1000);
}
