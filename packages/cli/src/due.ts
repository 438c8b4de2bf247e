import type { CaptureInbox } from '@capture-inbox/sdk';

/** A full ISO 8601 instant (with its offset) is already unambiguous and goes to the API as it is. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * `--due WHEN` as the API's due_at. Plain words ("tomorrow 5pm") and dates without an offset are
 * read by the server in the user's time zone, with the organizer's rules (GET /dates/read), so
 * the CLI never reads dates differently from the rest of the product. `none` clears a due date.
 */
export async function dueAt(inbox: CaptureInbox, when: string): Promise<string | null> {
  const text = when.trim();
  if (/^(none|clear)$/i.test(text)) return null;
  if (ISO_INSTANT.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text).toISOString();
  return (await inbox.dates.read(text)).due_at;
}
