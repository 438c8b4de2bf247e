/** The queue was full, or a task waited longer than allowed for a free slot. */
export class WorkQueueBusyError extends Error {
  override readonly name = 'WorkQueueBusyError';
  constructor(readonly reason: 'queue_full' | 'wait_timeout') {
    super(reason === 'queue_full' ? 'the work queue is full' : 'waited too long for a free slot');
  }
}

export interface WorkLimiterOptions {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks allowed to wait for a slot; one more is refused at once. */
  maxWaiting: number;
  /** How long a task may wait for a slot before it is refused. */
  maxWaitMs: number;
}

export interface WorkLimiter {
  /**
   * Runs the task once a slot is free (first come, first served). Rejects with WorkQueueBusyError
   * when the queue is full or the wait times out, and with the signal's reason when it aborts
   * while waiting; a task that started is never interrupted here.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

interface Waiter {
  start(): void;
}

/** A counting semaphore with a bounded, time-limited FIFO queue. */
export function createWorkLimiter(options: WorkLimiterOptions): WorkLimiter {
  let running = 0;
  const queue: Waiter[] = [];

  // A finished task hands its slot straight to the next waiter, so `running` never dips and
  // a newcomer cannot overtake the queue.
  function release(): void {
    const next = queue.shift();
    if (next) next.start();
    else running -= 1;
  }

  function acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (running < options.concurrency) {
      running += 1;
      return Promise.resolve();
    }
    if (queue.length >= options.maxWaiting) return Promise.reject(new WorkQueueBusyError('queue_full'));
    return new Promise<void>((resolve, reject) => {
      const leave = (error: unknown): void => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = (): void => leave(signal?.reason);
      const waiter: Waiter = {
        start() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const timer = setTimeout(() => leave(new WorkQueueBusyError('wait_timeout')), options.maxWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  return {
    async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
