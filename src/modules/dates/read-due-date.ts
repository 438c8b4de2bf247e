import { badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';

/** Phrases longer than this are not a date a client typed into a `--due` flag. */
export const DATE_TEXT_MAX = 200;

/**
 * The due instant that plain words ("tomorrow 5pm", "fri eod") name in the user's zone, read by the
 * organizer's own rules, so a client never parses dates by rules of its own. The parser is loaded at
 * first use, like the organizer's local engine (chrono-node weighs on start-up).
 */
export async function readDueDate(clock: Clock, text: string, zone: string): Promise<{ text: string; due_at: string; all_day: boolean }> {
  const { findDueDate } = await import('../../lib/dates/due-date.js');
  const finding = findDueDate(text, clock.now(), zone);
  if (!finding.dueAt) {
    const why = finding.aboutPast ? 'it names a time in the past' : 'it names no date or time';
    throw badRequest(`cannot read a due date from "${text}": ${why}`, 'text');
  }
  return { text, due_at: toTimestamp(finding.dueAt), all_day: finding.allDay };
}
