import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLeasedLoop, createPollLoop, keepLease, type Timers } from '../../src/lib/poll-loop.js';
import { DEFAULT_READER_SETTINGS } from '../../src/modules/email-in/reader-settings.js';

/** Time is vitest's fake clock and timers: nothing here sleeps. */
beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-29T00:00:00.000Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Timers a test can kill, as a process that dies stops running its own. */
function mortalTimers(): Timers & { kill(): void } {
  let dead = false;
  return {
    setTimeout: (fn, ms) => setTimeout(() => !dead && fn(), ms),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    kill: () => {
      dead = true;
    },
  };
}

const noError = () => {
  throw new Error('no pass should fail here');
};

describe('createPollLoop', () => {
  it('passes at once on start, then every interval, and never after stop', async () => {
    const pass = vi.fn(async () => undefined);
    const loop = createPollLoop({ pass, intervalMs: 1000, backoffMs: [100, 800], onError: noError });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(2);
    await loop.stop();
    expect(loop.running).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pass).toHaveBeenCalledTimes(2);
  });

  it('uses the pause a pass answers', async () => {
    const pauses = [0, 50, 5000];
    const t0 = Date.now();
    const at: number[] = [];
    const loop = createPollLoop({
      pass: async () => {
        at.push(Date.now() - t0);
        return pauses.shift();
      },
      intervalMs: 1000,
      backoffMs: [100, 800],
      onError: noError,
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(6000);
    expect(at).toEqual([0, 1, 51, 5051]); // a 0 ms timer fires after 1 ms, as in Node
    await loop.stop();
  });

  it('wake() ends the pause; during a pass it asks for exactly one more, never an overlapping one', async () => {
    let inPass = 0;
    let most = 0;
    let release: (() => void) | undefined;
    const pass = vi.fn(async () => {
      inPass += 1;
      most = Math.max(most, inPass);
      await new Promise<void>((resolve) => (release = resolve));
      inPass -= 1;
    });
    const loop = createPollLoop({ pass, intervalMs: 60_000, backoffMs: [100, 800], onError: noError });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(1);
    loop.wake();
    loop.wake();
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(2);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(2); // the pause now
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(3);
    expect(most).toBe(1);
    const stopped = loop.stop();
    release!();
    await stopped;
  });

  it('backs off after failures, doubling to the cap, and starts over after a success', async () => {
    const failing = [true, true, true, true, false, true];
    const started: number[] = [];
    const errors: number[] = [];
    const loop = createPollLoop({
      pass: async () => {
        started.push(Date.now());
        if (failing.shift()) throw new Error('database away');
      },
      intervalMs: 1000,
      backoffMs: [100, 300],
      onError: (_err, retryInMs) => errors.push(retryInMs),
    });
    const t0 = Date.now();
    loop.start();
    await vi.advanceTimersByTimeAsync(100 + 200 + 300 + 300 + 1000);
    expect(errors).toEqual([100, 200, 300, 300, 100]);
    expect(started.map((t) => t - t0)).toEqual([0, 100, 300, 600, 900, 1900]);
    await loop.stop();
  });

  it('stop() aborts the pass in hand and waits for it to end', async () => {
    let ended = false;
    const loop = createPollLoop({
      pass: (stopping) =>
        new Promise<void>((resolve) =>
          stopping.addEventListener('abort', () => {
            ended = true;
            resolve();
          }),
        ),
      intervalMs: 1000,
      backoffMs: [100, 800],
      onError: noError,
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    await loop.stop();
    expect(ended).toBe(true);
  });
});

/** A lease row as reader-lease.repository.ts keeps it: taken when free, expired, or already this owner's. */
function leaseTable() {
  let row: { owner: string; until: number } | undefined;
  return {
    holder: () => (row && row.until > Date.now() ? row.owner : undefined),
    takeFor:
      (owner: string, leaseMs: number, alive: () => boolean = () => true) =>
      async (): Promise<boolean> => {
        if (!alive()) return new Promise<boolean>(() => undefined); // a dead process's query never comes back
        const now = Date.now();
        if (row && row.owner !== owner && row.until >= now) return false;
        row = { owner, until: now + leaseMs };
        return true;
      },
  };
}

describe('keepLease', () => {
  it('renews while held, and aborts `lost` when another holder has it', async () => {
    const table = leaseTable();
    const take = table.takeFor('a', 1000);
    await take();
    const lease = keepLease(take, { renewEveryMs: 300 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(table.holder()).toBe('a');
    expect(lease.lost.aborted).toBe(false);
    lease.end();
    await vi.advanceTimersByTimeAsync(1001);
    await table.takeFor('b', 1000)();
    const again = keepLease(take, { renewEveryMs: 300 });
    await vi.advanceTimersByTimeAsync(300);
    expect(again.lost.aborted).toBe(true);
    again.end();
  });

  it('counts a renewal that fails (the database) as lost', async () => {
    const lease = keepLease(async () => Promise.reject(new Error('gone')), { renewEveryMs: 300 });
    await vi.advanceTimersByTimeAsync(300);
    expect(lease.lost.aborted).toBe(true);
    lease.end();
  });
});

describe('createLeasedLoop with the email-in reader settings', () => {
  const { leaseMs, leaseRenewMs, standbyMs, backoffMs } = DEFAULT_READER_SETTINGS;

  function reader(table: ReturnType<typeof leaseTable>, owner: string) {
    const timers = mortalTimers();
    let alive = true;
    const reading: string[] = [];
    const loop = createLeasedLoop({
      take: table.takeFor(owner, leaseMs, () => alive),
      renewEveryMs: leaseRenewMs,
      standbyMs,
      backoffMs,
      timers,
      // Reads until the lease is lost or the reader stops, as the IMAP session does.
      work: (lost, stopping) =>
        new Promise<void>((resolve) => {
          reading.push(owner);
          lost.addEventListener('abort', () => resolve());
          stopping.addEventListener('abort', () => resolve());
        }),
      onTakeError: noError,
      onError: noError,
    });
    return {
      loop,
      reading,
      /** A crash: no more timers, no more queries, the lease not handed back. */
      die() {
        alive = false;
        timers.kill();
      },
    };
  }

  it('keeps one reader at a time, and a second takes over within 15 s of the first dying', async () => {
    const table = leaseTable();
    const a = reader(table, 'a');
    const b = reader(table, 'b');
    a.loop.start();
    await vi.advanceTimersByTimeAsync(0);
    b.loop.start();
    // A reads for a long while; its lease is renewed, so B only stands by.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(table.holder()).toBe('a');
    expect(b.reading).toEqual([]);
    // Dying just before a renewal is the worst case: the lease was renewed leaseRenewMs ago.
    await vi.advanceTimersByTimeAsync(leaseRenewMs - 1);
    a.die();
    const diedAt = Date.now();
    for (let i = 0; i < 150 && b.reading.length === 0; i += 1) await vi.advanceTimersByTimeAsync(100);
    expect(b.reading).toEqual(['b']);
    expect(Date.now() - diedAt).toBeLessThan(15_000);
    expect(table.holder()).toBe('b');
    await b.loop.stop();
  });

  it('bounds a takeover under 15 s with room for the renewal', () => {
    expect(leaseMs + standbyMs).toBeLessThan(15_000);
    expect(leaseRenewMs).toBeLessThan(leaseMs / 2);
  });
});
