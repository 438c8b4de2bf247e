/*
 * Intl.DateTimeFormat objects, made once per locale, zone and options. Making one costs tens of
 * microseconds (ICU loads the locale's patterns each time) and a page labels every row's due date
 * with two or three: on a 100-row Inbox that was most of the page's CPU (decision 0111).
 */

/** Locales times zones times the few option sets the pages use; past this the cache starts over. */
const MAX_FORMATS = 2_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The formatter for a locale, zone and options; `options` must not hold `timeZone` (the zone is its own argument). */
export function dateFormat(locale: string, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${zone}\u0000${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, format);
  }
  return format;
}
