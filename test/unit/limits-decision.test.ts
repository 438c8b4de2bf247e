import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { ConsumeResult, CounterSpec, CounterStore } from '../../src/modules/limits/counter-store.js';
import { createLimitsService, type RequestDecision } from '../../src/modules/limits/limits.service.js';
import { createMemoryStore } from '../../src/modules/limits/memory-store.js';
import { createMetrics } from '../../src/modules/metrics/metrics.js';

const user = { id: 'user-a', plan: 'free' as const };
/** Half a minute into a minute window, so every decision's reset is 30 s. */
const NOW = new Date('2026-11-26T12:00:30.000Z');

function service(store: CounterStore) {
  const metrics = createMetrics();
  return {
    metrics,
    limits: createLimitsService({
      store,
      config: { ...DEFAULT_LIMITS, free: { perMinute: 2, perDay: 100 } },
      clock: new ManualClock(NOW),
      metrics,
      logger: pino({ level: 'silent' }),
    }),
  };
}

/** A store that answers from elsewhere (as Redis and the primary process do): promises only. */
function remoteStore(answer: (specs: readonly CounterSpec[]) => Promise<ConsumeResult>): CounterStore {
  return { kind: 'redis', consume: answer, ready: async () => true, close: async () => {} };
}

describe("a request's rate-limit decision", () => {
  it('comes in the same turn from the in-process store, counting and refusing as the async path does', async () => {
    const { limits } = service(createMemoryStore(new ManualClock(NOW)));
    const decisions = [limits.checkUserRequest(user), limits.checkUserRequest(user), limits.checkUserRequest(user)];
    for (const decision of decisions) expect(decision).not.toBeInstanceOf(Promise);
    const [first, second, third] = decisions as RequestDecision[];
    expect(first?.allowed).toBe(true);
    expect(first?.windows[0]).toEqual({ scope: 'minute', limit: 2, remaining: 1, reset: 30, length: 60 });
    expect(second?.windows[0].remaining).toBe(0);
    expect(third).toMatchObject({ allowed: false, scope: 'minute', retryAfter: 30 });
    // The refused request was not counted: the day window still shows two.
    expect(third?.windows[1].remaining).toBe(98);
  });

  it('is a promise from a store elsewhere, with the same answer', async () => {
    const { limits } = service(remoteStore(async (specs) => ({ allowed: true, counts: specs.map(() => 1) })));
    const decision = limits.checkUserRequest(user);
    expect(decision).toBeInstanceOf(Promise);
    expect(await decision).toEqual({
      allowed: true,
      windows: [
        { scope: 'minute', limit: 2, remaining: 1, reset: 30, length: 60 },
        { scope: 'day', limit: 100, remaining: 99, reset: 43_170, length: 86_400 },
      ],
    });
  });

  it('fails open, counting the error, whether the store rejects or throws at once', async () => {
    const rejecting = service(remoteStore(() => Promise.reject(new Error('connection refused'))));
    expect(await rejecting.limits.checkUserRequest(user)).toMatchObject({ allowed: true });
    const throwing = service({
      ...createMemoryStore(new ManualClock()),
      consumeNow: () => {
        throw new Error('broken');
      },
    });
    const decision = throwing.limits.checkUserRequest(user);
    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision).toMatchObject({ allowed: true });
    for (const { metrics } of [rejecting, throwing]) expect(await metrics.rateLimitStoreErrors.get()).toMatchObject({ values: [{ value: 1 }] });
  });
});
