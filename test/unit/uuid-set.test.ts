import { v4 as uuidv4, v5 as uuidv5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { UuidSet } from '../../src/modules/transfer/uuid-set.js';

describe('UuidSet', () => {
  it('answers true for a new id and false for one it holds, whatever its case, across many doublings', () => {
    const set = new UuidSet();
    const ids = Array.from({ length: 20_000 }, (_, i) => uuidv5(`task ${i}`, '6f1d2b0e-8c55-4c1e-9a51-3f1e2a7c9b44'));
    expect(ids.every((id) => set.add(id))).toBe(true);
    expect(ids.some((id) => set.add(id))).toBe(false);
    expect(set.add(ids[123]!.toUpperCase())).toBe(false);
    expect(set.add(uuidv4())).toBe(true);
  });

  it('tells apart ids that share their first word (the slot) and differ only in the last', () => {
    const set = new UuidSet();
    expect(set.add('0000abcd-0000-5000-8000-000000000001')).toBe(true);
    expect(set.add('0000abcd-0000-5000-8000-000000000002')).toBe(true);
    expect(set.add('0000abcd-0000-5000-8000-000000000001')).toBe(false);
  });

  it('refuses what it cannot hold: not a UUID, or one whose second word is zero', () => {
    const set = new UuidSet();
    expect(() => set.add('not-a-uuid')).toThrow(/not a UUID/);
    expect(() => set.add('12345678-0000-0000-0000-000000000000')).toThrow(/not a versioned UUID/);
  });
});
