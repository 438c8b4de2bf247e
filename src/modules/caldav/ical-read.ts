import ICAL from 'ical.js';
import { badRequest } from '../../errors.js';
import { mappedAlarm } from './ical-alarm.js';
import { readTime, type ReadTime } from './ical-time.js';

/** The components a collection may hold; VEVENT is read only to be refused by name. */
export type ObjectKind = 'VTODO' | 'VJOURNAL' | 'VEVENT';

/** A PUT body, read: what the service maps, and the whole text to keep for the round trip. */
export interface ParsedObject {
  kind: ObjectKind;
  uid: string;
  summary: string | null;
  description: string | null;
  /** STATUS upper-cased, or null when absent. */
  status: string | null;
  /** COMPLETED status, a COMPLETED time, or PERCENT-COMPLETE 100. */
  completed: boolean;
  due: ReadTime | null;
  categories: string[];
  /** RELATED-TO with RELTYPE=PARENT (the default RELTYPE). */
  parentUid: string | null;
  /** The RRULE as text (no RRULE: prefix), or null. */
  rrule: string | null;
  remindAt: string | null;
  /** The calendar as ical.js writes it again: what GET overlays later. */
  text: string;
}

/** Over this many CATEGORIES values the body is refused before anything else is read. */
const CATEGORIES_MAX = 1000;

const bad = (why: string) => badRequest(`the iCalendar body is not valid: ${why}`);

function parseCalendar(text: string): ICAL.Component {
  let jcal: unknown;
  try {
    jcal = ICAL.parse(text);
  } catch (error) {
    throw bad(error instanceof Error ? error.message : 'it does not parse');
  }
  // Several VCALENDARs in one body parse to a list of them.
  if (!Array.isArray(jcal) || typeof jcal[0] !== 'string') throw bad('one VCALENDAR is expected');
  const calendar = new ICAL.Component(jcal);
  if (calendar.name !== 'vcalendar') throw bad('the body must be a VCALENDAR');
  return calendar;
}

const textValue = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

function parentOf(component: ICAL.Component): string | null {
  for (const prop of component.getAllProperties('related-to')) {
    const reltype = (prop.getFirstParameter('reltype') ?? 'PARENT').toUpperCase();
    const value = prop.getFirstValue();
    if (reltype === 'PARENT' && typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/**
 * Reads a calendar object resource (RFC 4791 section 4.1): one VCALENDAR whose components share one
 * UID; the master (no RECURRENCE-ID) is what the item maps. Anything else is 400 with the reason.
 */
export function readObject(text: string, zone: string): ParsedObject {
  const calendar = parseCalendar(text);
  const components = calendar.getAllSubcomponents().filter((c) => ['vtodo', 'vjournal', 'vevent'].includes(c.name));
  if (components.length === 0) throw bad('it has no VTODO or VJOURNAL');
  const uids = new Set(components.map((c) => c.getFirstPropertyValue('uid')));
  if (uids.size !== 1) throw bad('all its components must share one UID');
  const kinds = new Set(components.map((c) => c.name));
  if (kinds.size !== 1) throw bad('it mixes component types');
  const master = components.find((c) => !c.hasProperty('recurrence-id')) ?? components[0]!;
  const uid = master.getFirstPropertyValue('uid');
  if (typeof uid !== 'string' || uid.trim() === '' || uid.length > 255) throw bad('UID is missing or longer than 255 characters');
  const categoryValues = master.getAllProperties('categories').flatMap((p) => p.getValues() as unknown[]);
  if (categoryValues.length > CATEGORIES_MAX) throw bad(`more than ${CATEGORIES_MAX} CATEGORIES`);
  const categories = [
    ...new Set(
      categoryValues
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.trim())
        .filter((v) => v !== ''),
    ),
  ];
  const dueProp = master.getFirstProperty('due');
  const due = dueProp ? readTime(dueProp, calendar, zone) : null;
  if (dueProp && !due) throw bad('DUE is not a date or date-time');
  const status = textValue(master, 'status')?.toUpperCase() ?? null;
  const percent = Number(master.getFirstProperty('percent-complete')?.getFirstValue() ?? 0);
  const rrule = master.getFirstPropertyValue('rrule');
  return {
    kind: master.name.toUpperCase() as ObjectKind,
    uid: uid.trim(),
    summary: textValue(master, 'summary'),
    description: textValue(master, 'description'),
    status,
    completed: status === 'COMPLETED' || (status === null && (master.hasProperty('completed') || percent === 100)),
    due,
    categories,
    parentUid: parentOf(master),
    rrule: rrule instanceof ICAL.Recur ? rrule.toString() : null,
    remindAt: mappedAlarm(master, calendar, zone, due?.at ?? null)?.at ?? null,
    text: calendar.toString(),
  };
}
