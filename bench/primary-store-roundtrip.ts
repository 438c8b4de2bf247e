import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isAskMessage } from '../src/cluster/messages.js';
import { createPrimaryAnswers } from '../src/cluster/primary-answers.js';
import { systemClock } from '../src/lib/clock.js';
import { createMemoryStore } from '../src/modules/limits/memory-store.js';

const CALLS = 20_000;

export interface PrimaryStoreRoundTrip {
  calls: number;
  /** One rate-limit check of a cluster worker without Redis: IPC to the primary and back. */
  median_us: number;
  p99_us: number;
}

/** This process plays the primary (the same answering code); a forked child plays a worker. */
export async function measurePrimaryStoreRoundTrip(): Promise<PrimaryStoreRoundTrip> {
  const answer = createPrimaryAnswers({ counters: createMemoryStore(systemClock), metrics: async () => '' }, (reply) => child.send(reply));
  const child = fork(fileURLToPath(new URL('./primary-store-child.js', import.meta.url)), [String(CALLS)], { stdio: 'inherit' });
  const samples = new Promise<number[]>((resolve) => {
    child.on('message', (message: unknown) => {
      if (isAskMessage(message)) answer(message);
      else if (typeof message === 'object' && message !== null && 'samples' in message) resolve((message as { samples: number[] }).samples);
    });
  });
  const exited = once(child, 'exit');
  const timeout = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    const sorted = await Promise.race([samples, exited.then(() => undefined)]);
    if (!sorted) throw new Error('the worker child exited before it reported');
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
    return { calls: CALLS, median_us: Number(at(50).toFixed(2)), p99_us: Number(at(99).toFixed(2)) };
  } finally {
    clearTimeout(timeout);
    if (child.exitCode === null) await exited;
  }
}
