import { describe, expect, it } from 'vitest';
import { WARM_PHRASES, WARM_ZONES, warmDateReader } from '../../src/lib/dates/warm-date-reader.js';

describe('warmDateReader (decision 0112)', () => {
  it('reads a due date out of every phrase in both of the reader configurations, so the warm-up runs the paths a capture runs', () => {
    expect(warmDateReader(new Date('2026-11-30T10:00:00Z'))).toBe(WARM_PHRASES.length * WARM_ZONES.length);
  });
});
