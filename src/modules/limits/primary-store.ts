import type { PrimaryChannel } from '../../cluster/primary-channel.js';
import type { CounterStore } from './counter-store.js';

/**
 * A short wait: the primary answers from memory in microseconds, and past this the limits service
 * fails open (and logs) like it does when Redis is down, rather than holding the request.
 */
const ANSWER_TIMEOUT_MS = 1_000;

/**
 * Counters of a cluster worker without Redis: the primary process keeps the memory store and every
 * worker asks it, so WORKERS > 1 still enforces one limit per user, not one per worker.
 */
export function createPrimaryStore(channel: PrimaryChannel): CounterStore {
  return {
    kind: 'memory',
    consume: (specs) => channel.ask({ cin: 'counters', specs: [...specs] }, ANSWER_TIMEOUT_MS),
    ready: async () => true,
    async close() {
      // The channel belongs to the worker's bootstrap, which closes it after the server.
    },
  };
}
