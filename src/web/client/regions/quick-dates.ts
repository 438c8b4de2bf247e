/* The row menu's quick dates, pure (no DOM): unit-tested under Node. */

/** `ymd` (YYYY-MM-DD) plus `days`, as a calendar date (no zone: a date is a date). */
function addDays(ymd: string, days: number): string {
  const at = new Date(`${ymd}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * The quick dates of the menu (issue 47 item 9): today, tomorrow and Monday of next week (as
 * "next week" reads in the capture box), from the user's date the page was made on.
 */
export function quickDates(today: string): Array<[label: string, date: string]> {
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  return [
    ['Today', today],
    ['Tomorrow', addDays(today, 1)],
    ['Next week', addDays(today, (8 - weekday) % 7 || 7)],
  ];
}
