import { findDueDate } from './due-date.js';

/*
 * Why (decision 0112): the date reader (chrono and our rules) runs hundreds of regular expressions
 * and functions that V8 compiles to machine code over their first uses. A fresh process's first
 * ten readings cost about 250 ms together, then a reading takes a tenth of a millisecond: the first
 * capture after a start, or its first 100-line batch (260–300 ms against 30 after), paid for it.
 * A server that has been up a moment reads these phrases once, in the background, instead.
 */

/** Typical dues, in both of the reader's configurations (British day-month and US month-day). */
export const WARM_PHRASES: readonly string[] = [
  'call Sam tomorrow 5pm',
  'buy milk friday',
  'dentist next tue 9:30am',
  'report in 2 weeks',
  'pay rent on the 1st at noon',
  'standup every weekday 9am',
  'tax return by 31 jan',
  'review today at 17:00',
];
export const WARM_ZONES = ['UTC', 'America/New_York'] as const;

/** Reads every phrase once in each zone; answers how many came out with a due date. */
export function warmDateReader(now = new Date()): number {
  let dated = 0;
  for (const zone of WARM_ZONES) for (const phrase of WARM_PHRASES) if (findDueDate(phrase, now, zone).dueAt !== null) dated += 1;
  return dated;
}
