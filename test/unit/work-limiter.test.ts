import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorkLimiter, WorkQueueBusyError } from '../../src/lib/work-limiter.js';

/** A task the test finishes by hand. */
function gate<T = string>(value: T) {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    open,
    task: async (): Promise<T> => {
      await opened;
      return value;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createWorkLimiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most `concurrency` tasks at once and the rest in arrival order', async () => {
    const limiter = createWorkLimiter({ concurrency: 2, maxWaiting: 10, maxWaitMs: 60_000 });
    const gates = ['a', 'b', 'c', 'd'].map((v) => gate(v));
    const started: string[] = [];
    const results = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(String(i));
        return g.task();
      }),
    );
    await settle();
    expect(started).toEqual(['0', '1']);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);
    gates[1]!.open();
    await settle();
    expect(started).toEqual(['0', '1', '2']);
    gates[0]!.open();
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect([limiter.running, limiter.waiting]).toEqual([0, 0]);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = createWorkLimiter({ concurrency: 1, maxWaiting: 1, maxWaitMs: 60_000 });
    await expect(
      limiter.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.running).toBe(0);
  });

  it('refuses at once when the queue is full', async () => {
    const limiter = createWorkLimiter({ concurrency: 1, maxWaiting: 1, maxWaitMs: 60_000 });
    const busy = gate('busy');
    const running = limiter.run(busy.task);
    const waiting = limiter.run(async () => 'waited');
    await expect(limiter.run(async () => 'refused')).rejects.toEqual(new WorkQueueBusyError('queue_full'));
    busy.open();
    expect(await running).toBe('busy');
    expect(await waiting).toBe('waited');
  });

  it('gives up on a wait that lasts longer than maxWaitMs', async () => {
    vi.useFakeTimers();
    const limiter = createWorkLimiter({ concurrency: 1, maxWaiting: 5, maxWaitMs: 1000 });
    const busy = gate('busy');
    const running = limiter.run(busy.task);
    const waiting = limiter.run(async () => 'never');
    const outcome = waiting.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    expect(limiter.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toEqual(new WorkQueueBusyError('wait_timeout'));
    expect(limiter.waiting).toBe(0);
    busy.open();
    expect(await running).toBe('busy');
    expect(limiter.running).toBe(0);
  });

  it('leaves the queue when the caller aborts, and never starts the task', async () => {
    const limiter = createWorkLimiter({ concurrency: 1, maxWaiting: 5, maxWaitMs: 60_000 });
    const busy = gate('busy');
    const running = limiter.run(busy.task);
    const controller = new AbortController();
    let started = false;
    const waiting = limiter
      .run(async () => {
        started = true;
      }, controller.signal)
      .catch((error: unknown) => error);
    controller.abort(new Error('client left'));
    expect(await waiting).toEqual(new Error('client left'));
    expect(limiter.waiting).toBe(0);
    busy.open();
    await running;
    expect(started).toBe(false);
    expect(limiter.running).toBe(0);
  });
});
