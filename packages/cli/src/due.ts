import type { CaptureInbox } from '@capture-inbox/sdk';

/** A full ISO 8601 instant (with its offset) is already unambiguous and goes to the API as it is. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * `--due WHEN` as the API's due_at. Plain words ("tomorrow 5pm") and dates without an offset are
 * read by the server in the user's time zone, with the organizer's rules (GET /dates/read), so
 * the CLI never reads dates differently from the rest of the product. `none` clears a due date.
 */
export async function dueAt(inbox: CaptureInbox, when: string): Promise<string | null> {
  return (await readDue(inbox, when)).due_at;
}

/**
 * `--due WHEN` as the API's due_at and all_day: words naming a day without a time ("friday",
 * "dec 24", "2026-12-01") are all-day, as the server reads them (contract "All-day dates").
 */
export async function readDue(inbox: CaptureInbox, when: string): Promise<{ due_at: string | null; all_day: boolean }> {
  const text = when.trim();
  if (/^(none|clear)$/i.test(text)) return { due_at: null, all_day: false };
  if (ISO_INSTANT.test(text) && !Number.isNaN(Date.parse(text))) return { due_at: new Date(text).toISOString(), all_day: false };
  const read = await inbox.dates.read(text);
  return { due_at: read.due_at, all_day: read.all_day };
}
