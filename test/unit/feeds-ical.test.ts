import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { todosDocument } from '../../src/modules/feeds/feed-ical.js';

/* A todos feed gathers the CalDAV objects into one calendar: every VTODO, each VTIMEZONE once. */

const zone = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:STANDARD',
  'DTSTART:19701025T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'END:VTIMEZONE',
];
const object = (uid: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//EN',
    ...zone,
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:20261129T080000Z',
    'DUE;TZID=Europe/Berlin:20261201T090000',
    `SUMMARY:${uid}`,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe('todosDocument', () => {
  it('keeps every VTODO and a shared VTIMEZONE once, under the feed name', () => {
    const calendar = new ICAL.Component(ICAL.parse(todosDocument('Garden', [object('a'), object('b')])) as unknown[]);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Garden');
    expect(calendar.getAllSubcomponents('vtodo').map((t) => t.getFirstPropertyValue('uid'))).toEqual(['a', 'b']);
    expect(calendar.getAllSubcomponents('vtimezone')).toHaveLength(1);
    expect(calendar.getAllSubcomponents('vtodo')[1]!.getFirstProperty('due')!.getFirstParameter('tzid')).toBe('Europe/Berlin');
  });

  it('is an empty calendar with no todos', () => {
    const calendar = new ICAL.Component(ICAL.parse(todosDocument('Nothing', [])) as unknown[]);
    expect(calendar.getAllSubcomponents()).toEqual([]);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  });
});
