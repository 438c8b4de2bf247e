import ICAL from 'ical.js';
import type { ItemView } from '../items/item-view.js';
import { absoluteAlarm, mappedAlarm } from './ical-alarm.js';
import { localDate, readTime, utcTime } from './ical-time.js';

/*
 * An item as a calendar object. With a kept text (the last one a client PUT) the item's mapped
 * fields are laid over it and everything else (X- properties, other alarms, PRIORITY, GEO, ATTACH,
 * a TZID'd DUE that still names the same instant) comes back as it was sent; a kept value is
 * replaced only where the item now says something else (decisions/0081).
 */

const PRODID = '-//Capture Inbox//CalDAV//EN';

export interface RenderInput {
  item: ItemView;
  uid: string;
  /** The UID the parent is known by (its client's, or its id), when the item has one. */
  parentUid: string | null;
  kept: string | null;
  zone: string;
  /** Whether the kept RRULE is one the service cannot hold: then it stays, read-only. */
  ruleIsForeign: (rule: string) => boolean;
}

function keptCalendar(kept: string | null, uid: string): { calendar: ICAL.Component; master: ICAL.Component } | null {
  if (kept === null) return null;
  try {
    const calendar = new ICAL.Component(ICAL.parse(kept) as unknown[]);
    const master = calendar.getAllSubcomponents().find((c) => c.getFirstPropertyValue('uid') === uid && !c.hasProperty('recurrence-id'));
    return master ? { calendar, master } : null;
  } catch {
    return null;
  }
}

function freshCalendar(item: ItemView): { calendar: ICAL.Component; master: ICAL.Component } {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', PRODID);
  const master = new ICAL.Component(item.type === 'note' ? 'vjournal' : 'vtodo');
  calendar.addSubcomponent(master);
  return { calendar, master };
}

function setOrRemove(component: ICAL.Component, name: string, value: string | ICAL.Time | null): void {
  if (value === null) component.removeAllProperties(name);
  else component.updatePropertyWithValue(name, value);
}

function todoStatus(item: ItemView): string {
  if (item.status === 'archived') return 'CANCELLED';
  if (item.is_completed) return 'COMPLETED';
  return item.status === 'doing' ? 'IN-PROCESS' : 'NEEDS-ACTION';
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const norm = (list: readonly string[]) => [...new Set(list.map((s) => s.toLowerCase()))].sort().join('\u0000');
  return norm(a) === norm(b);
};

function overlayStatus(master: ICAL.Component, item: ItemView): void {
  if (master.name === 'vjournal') {
    const kept = master.getFirstPropertyValue('status');
    if (item.status === 'archived') master.updatePropertyWithValue('status', 'CANCELLED');
    else if (kept === 'CANCELLED') master.updatePropertyWithValue('status', 'FINAL');
    return;
  }
  const status = todoStatus(item);
  // A todo sent without STATUS is NEEDS-ACTION (RFC 5545 leaves it implied): keep it implied.
  if (!(status === 'NEEDS-ACTION' && !master.hasProperty('status'))) master.updatePropertyWithValue('status', status);
  if (item.is_completed) {
    if (!master.hasProperty('completed')) master.updatePropertyWithValue('completed', utcTime(item.updated_at));
  } else {
    master.removeAllProperties('completed');
    if (Number(master.getFirstProperty('percent-complete')?.getFirstValue() ?? 0) === 100) master.removeAllProperties('percent-complete');
  }
}

function overlayDue(calendar: ICAL.Component, master: ICAL.Component, item: ItemView, zone: string): void {
  const prop = master.getFirstProperty('due');
  if (item.due_at === null) {
    master.removeAllProperties('due');
    return;
  }
  const kept = prop ? readTime(prop, calendar, zone) : null;
  if (kept && kept.at === item.due_at && kept.dateOnly === item.all_day) return;
  master.removeAllProperties('due');
  const due = new ICAL.Property('due', master);
  if (item.all_day) due.resetType('date');
  due.setValue(item.all_day ? localDate(item.due_at, zone) : utcTime(item.due_at));
  master.addProperty(due);
}

function overlayCategories(master: ICAL.Component, tags: readonly string[]): void {
  const kept = master
    .getAllProperties('categories')
    .flatMap((p) => p.getValues() as unknown[])
    .filter((v): v is string => typeof v === 'string');
  if (sameSet(kept, tags)) return;
  master.removeAllProperties('categories');
  if (tags.length === 0) return;
  const prop = new ICAL.Property('categories', master);
  prop.setValues([...tags]);
  master.addProperty(prop);
}

function overlayParent(master: ICAL.Component, parentUid: string | null): void {
  const parents = master.getAllProperties('related-to').filter((p) => (p.getFirstParameter('reltype') ?? 'PARENT').toUpperCase() === 'PARENT');
  if (parents.length === 1 && parents[0]!.getFirstValue() === parentUid) return;
  for (const p of parents) master.removeProperty(p);
  if (parentUid !== null) master.addPropertyWithValue('related-to', parentUid);
}

function overlayRule(master: ICAL.Component, item: ItemView, ruleIsForeign: (rule: string) => boolean): void {
  const keptValue = master.getFirstPropertyValue('rrule');
  const kept = keptValue instanceof ICAL.Recur ? keptValue.toString() : null;
  if (item.recurrence === null) {
    if (kept !== null && !ruleIsForeign(kept)) master.removeAllProperties('rrule');
    return;
  }
  if (kept?.toUpperCase() === item.recurrence.rule) return;
  master.updatePropertyWithValue('rrule', ICAL.Recur.fromString(item.recurrence.rule));
  // RFC 5545: a recurring component needs a DTSTART; the series starts at the current due date.
  if (!master.hasProperty('dtstart') && item.due_at !== null) master.updatePropertyWithValue('dtstart', utcTime(item.due_at));
}

function overlayAlarm(calendar: ICAL.Component, master: ICAL.Component, item: ItemView, zone: string): void {
  const kept = mappedAlarm(master, calendar, zone, item.due_at);
  if (kept && kept.at === item.remind_at) return;
  if (kept) master.removeSubcomponent(kept.alarm);
  if (item.remind_at !== null) master.addSubcomponent(absoluteAlarm(item.remind_at, item.title ?? 'Reminder'));
}

/** The item's calendar object, as text. */
export function renderObject(input: RenderInput): string {
  const { item, zone } = input;
  const { calendar, master } = keptCalendar(input.kept, input.uid) ?? freshCalendar(item);
  master.updatePropertyWithValue('uid', input.uid);
  master.updatePropertyWithValue('dtstamp', utcTime(item.updated_at));
  master.updatePropertyWithValue('created', utcTime(item.created_at));
  master.updatePropertyWithValue('last-modified', utcTime(item.updated_at));
  setOrRemove(master, 'summary', item.title);
  setOrRemove(master, 'description', item.content_md);
  overlayStatus(master, item);
  overlayCategories(master, item.tags);
  overlayParent(master, input.parentUid);
  if (master.name === 'vtodo') {
    overlayDue(calendar, master, item, zone);
    overlayRule(master, item, input.ruleIsForeign);
    overlayAlarm(calendar, master, item, zone);
  } else if (!master.hasProperty('dtstart')) {
    master.updatePropertyWithValue('dtstart', utcTime(item.created_at));
  }
  return calendar.toString();
}
