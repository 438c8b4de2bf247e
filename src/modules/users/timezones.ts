/** The canonical IANA name of a zone Node's ICU knows, or null ("europe/paris" → "Europe/Paris"). */
export function canonicalTimeZone(name: string): string | null {
  if (name.trim() === '' || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
