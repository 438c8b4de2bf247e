import type { Clock } from '../../lib/clock.js';
import type { ConsumeResult, CounterSpec, CounterStore } from './counter-store.js';

interface Counter {
  count: number;
  expiresAt: number;
}

/** Sweep expired counters now and then so a long-running process does not grow without bound. */
const SWEEP_EVERY = 10_000;

/** In-process counters for a single instance; atomic because the event loop runs one call at a time. */
export function createMemoryStore(clock: Clock): CounterStore {
  const counters = new Map<string, Counter>();
  let calls = 0;

  function live(key: string, now: number): Counter | undefined {
    const counter = counters.get(key);
    if (counter && counter.expiresAt <= now) {
      counters.delete(key);
      return undefined;
    }
    return counter;
  }

  function sweep(now: number): void {
    for (const [key, counter] of counters) if (counter.expiresAt <= now) counters.delete(key);
  }

  function consumeNow(specs: readonly CounterSpec[]): ConsumeResult {
    const now = clock.now().getTime();
    calls += 1;
    if (calls % SWEEP_EVERY === 0) sweep(now);
    const current = specs.map((spec) => live(spec.key, now)?.count ?? 0);
    if (specs.some((spec, i) => current[i]! >= spec.limit)) return { allowed: false, counts: current };
    const counts = specs.map((spec, i) => {
      const counter = counters.get(spec.key);
      if (counter && counter.expiresAt > now) counter.count += 1;
      else counters.set(spec.key, { count: 1, expiresAt: now + spec.ttlMs });
      return current[i]! + 1;
    });
    return { allowed: true, counts };
  }

  return {
    kind: 'memory',
    consumeNow,
    consume: async (specs) => consumeNow(specs),
    ready: async () => true,
    async close() {
      counters.clear();
    },
  };
}
