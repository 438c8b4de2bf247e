import ICAL from 'ical.js';
import { readTime, utcTime } from './ical-time.js';

/*
 * The one VALARM the service maps to remind_at: the first whose trigger is absolute, or relative
 * to DUE (RELATED=END on a VTODO, or RELATED=START when the todo has no DTSTART, as Tasks.org and
 * Thunderbird write it). Every other alarm is kept as it came.
 */

export interface MappedAlarm {
  alarm: ICAL.Component;
  at: string;
}

export function mappedAlarm(todo: ICAL.Component, calendar: ICAL.Component | null, zone: string, dueAt: string | null): MappedAlarm | null {
  for (const alarm of todo.getAllSubcomponents('valarm')) {
    const trigger = alarm.getFirstProperty('trigger');
    if (!trigger) continue;
    const value = trigger.getFirstValue();
    if (value instanceof ICAL.Time) {
      const read = readTime(trigger, calendar, zone);
      if (read) return { alarm, at: read.at };
      continue;
    }
    if (!(value instanceof ICAL.Duration) || dueAt === null) continue;
    const related = (trigger.getFirstParameter('related') ?? 'START').toUpperCase();
    if (related === 'END' || (related === 'START' && !todo.hasProperty('dtstart'))) {
      return { alarm, at: new Date(Date.parse(dueAt) + value.toSeconds() * 1000).toISOString() };
    }
  }
  return null;
}

/** A display alarm at an instant (what an item's remind_at becomes when no kept alarm says it). */
export function absoluteAlarm(at: string, description: string): ICAL.Component {
  const alarm = new ICAL.Component('valarm');
  alarm.addPropertyWithValue('action', 'DISPLAY');
  alarm.addPropertyWithValue('description', description);
  const trigger = new ICAL.Property('trigger', alarm);
  trigger.resetType('date-time');
  trigger.setValue(utcTime(at));
  alarm.addProperty(trigger);
  return alarm;
}
