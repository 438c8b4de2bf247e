import { describe, expect, it } from 'vitest';
import { KeyCaches } from '../../src/modules/mcp/key-caches.js';
import { McpLoad } from '../../src/modules/mcp/mcp-load.js';

describe('McpLoad', () => {
  it('admits up to the per-user and the overall bound, and a release (once, however often called) makes room again', () => {
    const load = new McpLoad({ maxInFlight: 3, maxInFlightPerUser: 2 });
    const a1 = load.tryStart('a');
    const a2 = load.tryStart('a');
    expect(a1 && a2).toBeTruthy();
    expect(load.tryStart('a')).toBeNull();
    const b1 = load.tryStart('b');
    expect(b1).toBeTruthy();
    expect(load.tryStart('c')).toBeNull();
    expect(load.inFlight).toBe(3);
    a1!();
    a1!();
    expect(load.inFlight).toBe(2);
    const c1 = load.tryStart('c');
    expect(c1).toBeTruthy();
    expect(load.tryStart('a')).toBeNull();
    for (const release of [a2, b1, c1]) release!();
    expect(load.inFlight).toBe(0);
    expect(load.tryStart('a')).toBeTruthy();
  });
});

describe('KeyCaches', () => {
  it('gives each key its own cache, the same one again, and forgets the least recently used past 1,000 keys', () => {
    const caches = new KeyCaches();
    const first = caches.for('key-0');
    first.me = { value: null, at: 1 };
    expect(caches.for('key-0')).toBe(first);
    const second = caches.for('key-1');
    expect(second).not.toBe(first);
    for (let i = 2; i < 1000; i += 1) caches.for(`key-${i}`);
    caches.for('key-0'); // used again: key-1 is now the least recently used
    caches.for('key-1000');
    expect(caches.for('key-0')).toBe(first);
    expect(caches.for('key-1')).not.toBe(second);
  });
});
