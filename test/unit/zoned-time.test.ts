import { describe, expect, it } from 'vitest';
import { instantOf, wallTimeAt } from '../../src/lib/dates/zoned-time.js';

/** What the zone's clock shows, read the slow way: every part by name. */
function reference(zone: string, instant: Date) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const parts = Object.fromEntries(f.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour! % 24, minute: parts.minute };
}

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns'];

describe('wallTimeAt', () => {
  it('reads the same wall clock as the parts, across zones, daylight-saving changes and centuries', () => {
    const instants = [
      // Either side of Berlin's and New York's changes of 2026, and odd-offset zones' days.
      '2026-03-29T00:59:00Z',
      '2026-03-29T01:00:00Z',
      '2026-10-25T00:59:59Z',
      '2026-10-25T01:00:00Z',
      '2026-03-08T06:59:00Z',
      '2026-03-08T07:00:00Z',
      '2026-11-01T05:30:00Z',
      '2026-11-01T06:30:00Z',
      '2026-12-31T23:59:00Z',
      '0999-06-15T12:00:00Z',
      '1900-01-01T00:00:00Z',
      '2399-07-01T18:45:00Z',
    ].map((s) => new Date(s));
    // And every 37 minutes across a year: the hours around each change are crossed many times.
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 37 * 60_000 * 97) instants.push(new Date(t));
    for (const zone of ZONES) {
      for (const at of instants) expect(wallTimeAt(zone, at), `${zone} ${at.toISOString()}`).toEqual(reference(zone, at));
    }
  });

  it('answers each zone its own clock when the same instant is asked for in turn', () => {
    const at = new Date('2026-11-30T23:30:00Z');
    for (let i = 0; i < 3; i += 1) {
      expect(wallTimeAt('UTC', at)).toMatchObject({ day: 30, hour: 23 });
      expect(wallTimeAt('Europe/Berlin', at)).toMatchObject({ day: 1, month: 12, hour: 0 });
      expect(wallTimeAt('America/New_York', at)).toMatchObject({ day: 30, hour: 18 });
    }
    // Shared answers cannot be changed by one caller under another.
    expect(() => {
      (wallTimeAt('UTC', at) as { hour: number }).hour = 3;
    }).toThrow(TypeError);
    expect(instantOf('Europe/Berlin', { year: 2026, month: 12, day: 1, hour: 0, minute: 30 }).toISOString()).toBe(at.toISOString());
  });
});
