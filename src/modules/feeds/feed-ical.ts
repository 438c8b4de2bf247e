import ICAL from 'ical.js';
import type { ItemView } from '../items/item-view.js';
import { absoluteAlarm } from '../caldav/ical-alarm.js';
import { localDate, utcTime } from '../caldav/ical-time.js';

/*
 * A feed as one iCalendar document (contract "Calendar apps: CalDAV and feeds"). Todos are the
 * CalDAV server's own VTODO text (its writer, with whatever a calendar app PUT kept), lifted out of
 * their one-object calendars; events are a VEVENT at each item's due date, all-day ones as a
 * DATE, with the item's reminder as a VALARM. ical.js folds and escapes; nothing is concatenated.
 */

const PRODID = '-//Capture Inbox//Feeds//EN';
/** How often a subscribing app is asked to look again (Google and Outlook read one of these). */
const REFRESH = 'PT1H';

function feedCalendar(name: string): ICAL.Component {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', PRODID);
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('x-wr-calname', name);
  const refresh = new ICAL.Property('refresh-interval', calendar);
  refresh.resetType('duration');
  refresh.setValue(ICAL.Duration.fromString(REFRESH));
  calendar.addProperty(refresh);
  calendar.addPropertyWithValue('x-published-ttl', REFRESH);
  return calendar;
}

/** The todos' objects (each a whole VCALENDAR from the CalDAV writer) in one calendar; a VTIMEZONE they share is kept once. */
export function todosDocument(name: string, objects: readonly string[]): string {
  const calendar = feedCalendar(name);
  const zones = new Set<string>();
  for (const text of objects) {
    const one = new ICAL.Component(ICAL.parse(text) as unknown[]);
    // A copy: adding a component to the feed takes it out of its own calendar's list.
    for (const part of [...one.getAllSubcomponents()]) {
      if (part.name === 'vtimezone') {
        const tzid = String(part.getFirstPropertyValue('tzid'));
        if (zones.has(tzid)) continue;
        zones.add(tzid);
      }
      calendar.addSubcomponent(part);
    }
  }
  return calendar.toString();
}

function event(item: ItemView & { due_at: string }, zone: string): ICAL.Component {
  const vevent = new ICAL.Component('vevent');
  vevent.addPropertyWithValue('uid', item.id);
  vevent.addPropertyWithValue('dtstamp', utcTime(item.updated_at));
  vevent.addPropertyWithValue('created', utcTime(item.created_at));
  vevent.addPropertyWithValue('last-modified', utcTime(item.updated_at));
  vevent.addPropertyWithValue('summary', item.title ?? '(untitled)');
  if (item.content_md !== null) vevent.addPropertyWithValue('description', item.content_md);
  if (item.all_day) {
    // An all-day item is an all-day event: its day in the user's zone, one day long (RFC 5545 3.6.1).
    const day = localDate(item.due_at, zone);
    const next = day.clone();
    next.adjust(1, 0, 0, 0);
    for (const [name, value] of [
      ['dtstart', day],
      ['dtend', next],
    ] as const) {
      const prop = new ICAL.Property(name, vevent);
      prop.resetType('date');
      prop.setValue(value);
      vevent.addProperty(prop);
    }
  } else {
    vevent.addPropertyWithValue('dtstart', utcTime(item.due_at));
  }
  if (item.tags.length > 0) {
    const categories = new ICAL.Property('categories', vevent);
    categories.setValues([...item.tags]);
    vevent.addProperty(categories);
  }
  if (item.remind_at !== null) vevent.addSubcomponent(absoluteAlarm(item.remind_at, item.title ?? 'Reminder'));
  return vevent;
}

/** The items with a due date as events; the rest are left out. */
export function eventsDocument(name: string, items: readonly ItemView[], zone: string): string {
  const calendar = feedCalendar(name);
  for (const item of items) if (item.due_at !== null) calendar.addSubcomponent(event({ ...item, due_at: item.due_at }, zone));
  return calendar.toString();
}
