import { describe, expect, it } from 'vitest';
import { startOfLocalDay } from '../../packages/cli/src/local-day.js';

/** `cin ls --due today|week` counts the user's days: local midnights, also across a DST change. */
describe('startOfLocalDay', () => {
  it('is local midnight in the zone, today and days later', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(startOfLocalDay(now, 'Europe/Berlin').toISOString()).toBe('2026-11-20T23:00:00.000Z');
    expect(startOfLocalDay(now, 'Europe/Berlin', 1).toISOString()).toBe('2026-11-21T23:00:00.000Z');
    expect(startOfLocalDay(now, 'UTC', 7).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    // 10:00Z is still the 20th in Pago Pago (UTC-11) and already the 22nd in Kiritimati (UTC+14).
    expect(startOfLocalDay(now, 'Pacific/Pago_Pago').toISOString()).toBe('2026-11-20T11:00:00.000Z');
    expect(startOfLocalDay(now, 'Pacific/Kiritimati').toISOString()).toBe('2026-11-21T10:00:00.000Z');
  });

  it('finds the midnight on the other side of a DST change', () => {
    // Berlin moves to summer time on 29 March 2026 at 02:00: that day has 23 hours.
    const spring = new Date('2026-03-29T12:00:00Z');
    expect(startOfLocalDay(spring, 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfLocalDay(spring, 'Europe/Berlin', 1).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // New York leaves summer time on 1 November 2026: that day has 25 hours.
    const autumn = new Date('2026-11-01T12:00:00Z');
    expect(startOfLocalDay(autumn, 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfLocalDay(autumn, 'America/New_York', 1).toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });
});
