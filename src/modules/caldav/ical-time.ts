import ICAL from 'ical.js';
import { instantOf } from '../../lib/dates/zoned-time.js';

/*
 * iCalendar times to instants. UTC times are what they say; a TZID that is an IANA zone is read
 * with the platform's zone data (as every other date of the service); any other TZID (Outlook's
 * "W. Europe Standard Time", Mozilla's "/mozilla.org/.../Europe/Berlin") by the VTIMEZONE the
 * object carries; a floating time or an unknown zone is the user's wall clock. The global
 * TimezoneService of ical.js is never used: it is shared by every request of the process.
 */

export interface ReadTime {
  /** ISO 8601 UTC with milliseconds, as the API stores it. */
  at: string;
  /** A DATE value (no time of day): an all-day due. */
  dateOnly: boolean;
}

const zoneChecks = new Map<string, boolean>();
function isIanaZone(name: string): boolean {
  let known = zoneChecks.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (zoneChecks.size < 1000) zoneChecks.set(name, known);
  }
  return known;
}

function wallInstant(zone: string, t: ICAL.Time): number {
  return instantOf(zone, { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute }).getTime() + t.second * 1000;
}

/** The instant of a DATE or DATE-TIME property value, or null when the value is not a time. */
export function readTime(prop: ICAL.Property, calendar: ICAL.Component | null, userZone: string): ReadTime | null {
  const value = prop.getFirstValue();
  if (!(value instanceof ICAL.Time)) return null;
  if (value.isDate) return { at: new Date(wallInstant(userZone, value)).toISOString(), dateOnly: true };
  const tzid = prop.getFirstParameter('tzid');
  if (!tzid) {
    const utc = value.zone === ICAL.Timezone.utcTimezone || value.toString().endsWith('Z');
    return {
      at: new Date(utc ? Date.UTC(value.year, value.month - 1, value.day, value.hour, value.minute, value.second) : wallInstant(userZone, value)).toISOString(),
      dateOnly: false,
    };
  }
  if (isIanaZone(tzid)) return { at: new Date(wallInstant(tzid, value)).toISOString(), dateOnly: false };
  const vtimezone = calendar?.getAllSubcomponents('vtimezone').find((c) => c.getFirstPropertyValue('tzid') === tzid);
  if (vtimezone) {
    const zone = new ICAL.Timezone({ component: vtimezone, tzid });
    const offsetSeconds = zone.utcOffset(value);
    const wall = Date.UTC(value.year, value.month - 1, value.day, value.hour, value.minute, value.second);
    return { at: new Date(wall - offsetSeconds * 1000).toISOString(), dateOnly: false };
  }
  return { at: new Date(wallInstant(userZone, value)).toISOString(), dateOnly: false };
}

/** A UTC DATE-TIME value for an instant of the API. */
export const utcTime = (iso: string): ICAL.Time => ICAL.Time.fromJSDate(new Date(iso), true);

/** A DATE value: the local date of an instant in the user's zone (an all-day item's day). */
export function localDate(iso: string, zone: string): ICAL.Time {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  return ICAL.Time.fromDateString(parts);
}
