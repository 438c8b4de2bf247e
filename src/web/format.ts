/** The pairing page's clock time with its zone's abbreviation (a code shown for minutes, not a date). */
export function formatTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 minutes ago", "in 7 minutes", "just now". */
export function formatRelative(iso: string, now: Date): string {
  const diff = Date.parse(iso) - now.getTime();
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.trunc(diff / ms), unit);
  }
  return 'just now';
}

/** Service messages are written for API clients ("email is not a valid address"); pages show sentences. */
export function sentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const first = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
