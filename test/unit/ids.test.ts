import { version as uuidVersion, validate } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';

describe('newId', () => {
  it('makes distinct version-7 UUIDs that increase, also within one millisecond and across pool refills', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(uuidVersion(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i += 1) expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} < ${ids[i]}`).toBe(true);
  });

  it('carries the time it was made in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const millis = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('draws fresh random bits for each id (not one pool slice twice)', () => {
    const a = newId();
    const b = newId();
    expect(a.slice(-12)).not.toBe(b.slice(-12));
  });
});
