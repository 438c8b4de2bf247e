/*
 * The shape every background worker here shares (reminders, deliveries, the email-in reader): a
 * pass, then a pause; wake() cuts the pause short (or asks for one more pass when a pass is under
 * way); a failed pass is retried after a back-off that doubles up to a cap; stop() ends the pause
 * and waits for the pass in hand. Passes never overlap. Timers are injected so tests drive time.
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTimers: Timers = {
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    // A waiting worker never keeps the process alive on its own.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface PollLoopOptions {
  /**
   * One pass. `stopping` aborts when stop() is called. Answers the pause before the next pass in
   * ms, or nothing for `intervalMs`.
   */
  pass(stopping: AbortSignal): Promise<number | void>;
  intervalMs: number;
  /** After a failed pass: the first pause, doubled on each failure in a row up to the second. */
  backoffMs: readonly [number, number];
  /** Told of a failed pass and the pause before the next. */
  onError(err: unknown, retryInMs: number): void;
  timers?: Timers;
}

export interface PollLoop {
  start(): void;
  /** Ends the pause, aborts `stopping`, and waits for the pass in hand. */
  stop(): Promise<void>;
  /** A pass now: the pause ends, or one more pass follows the one under way. */
  wake(): void;
  readonly running: boolean;
}

export function createPollLoop(o: PollLoopOptions): PollLoop {
  const timers = o.timers ?? systemTimers;
  let running = false;
  let timer: unknown;
  let pass: Promise<void> | undefined;
  let again = false;
  let failures = 0;
  let stopping = new AbortController();

  function schedule(ms: number): void {
    if (!running) return;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = undefined;
      pass = runPasses().finally(() => {
        pass = undefined;
      });
    }, ms);
  }

  async function runPasses(): Promise<void> {
    let next: number;
    do {
      again = false;
      try {
        next = (await o.pass(stopping.signal)) ?? o.intervalMs;
        failures = 0;
      } catch (err) {
        next = Math.min(o.backoffMs[0] * 2 ** failures, o.backoffMs[1]);
        failures += 1;
        if (running) o.onError(err, next);
        break;
      }
    } while (again && running);
    schedule(next);
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      failures = 0;
      stopping = new AbortController();
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      stopping.abort();
      await pass;
    },
    wake() {
      if (!running) return;
      if (pass) again = true;
      else schedule(0);
    },
  };
}

/** What a lease is held in: one call takes it or renews it; true while this holder has it. */
export type TakeLease = () => Promise<boolean>;

export interface HeldLease {
  /** Aborts when a renewal finds the lease taken by another holder (or the store failing): stop what the lease guards. */
  readonly lost: AbortSignal;
  /** Stops renewing (the caller hands the lease back itself, or lets it run out). */
  end(): void;
}

/**
 * Renews a lease every `renewEveryMs` while work runs under it, so the lease itself can be short:
 * a holder that dies stops renewing, and another takes over once `leaseMs` (not a long work's
 * length) has passed. A renewal that fails counts as lost: the work stops rather than run unguarded.
 */
export function keepLease(take: TakeLease, o: { renewEveryMs: number; timers?: Timers }): HeldLease {
  const timers = o.timers ?? systemTimers;
  const lost = new AbortController();
  let timer: unknown;
  let ended = false;
  const renew = (): void => {
    timer = timers.setTimeout(() => {
      timer = undefined;
      void take().then(
        (held) => {
          if (ended) return;
          if (held) renew();
          else lost.abort(new Error('the lease was taken over'));
        },
        (err: unknown) => {
          if (!ended) lost.abort(err);
        },
      );
    }, o.renewEveryMs);
  };
  renew();
  return {
    lost: lost.signal,
    end() {
      ended = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}

export interface LeasedLoopOptions {
  /** Takes or renews the lease (one holder at a time across processes). */
  take: TakeLease;
  /** How often the holder renews it while working; well under the lease's length. */
  renewEveryMs: number;
  /** How often a process without the lease asks for it. */
  standbyMs: number;
  backoffMs: readonly [number, number];
  /**
   * The work the lease guards, until it ends or fails (then the back-off). `lost` aborts when a
   * renewal fails: stop at the next safe point. `stopping` aborts on stop().
   */
  work(lost: AbortSignal, stopping: AbortSignal): Promise<void>;
  /** The store could not be asked (the database): the process stands by and asks again. */
  onTakeError(err: unknown): void;
  onError(err: unknown, retryInMs: number): void;
  timers?: Timers;
}

/** A poll loop whose pass is: take the lease (or stand by), then work under it while it is renewed. */
export function createLeasedLoop(o: LeasedLoopOptions): PollLoop {
  return createPollLoop({
    intervalMs: o.standbyMs,
    backoffMs: o.backoffMs,
    onError: o.onError,
    ...(o.timers ? { timers: o.timers } : {}),
    async pass(stopping) {
      let held = false;
      try {
        held = await o.take();
      } catch (err) {
        o.onTakeError(err);
      }
      if (!held) return o.standbyMs;
      const lease = keepLease(o.take, { renewEveryMs: o.renewEveryMs, ...(o.timers ? { timers: o.timers } : {}) });
      try {
        await o.work(lease.lost, stopping);
      } finally {
        lease.end();
      }
      // Straight back to the lease: held still, the work goes on; lost, this process stands by.
      return 0;
    },
  });
}
