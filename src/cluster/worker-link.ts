import { AggregatorRegistry, type Registry } from 'prom-client';
import type { ClusterWorkerLink } from '../container.js';
import { createPrimaryStore } from '../modules/limits/primary-store.js';
import type { WakeupRelay } from '../modules/live/live-hub.js';
import type { Wakeup, WakeupListener } from '../modules/live/wakeups.js';
import { batcher, isWakeMessage, type WakeMessage } from './messages.js';
import type { PrimaryChannel } from './primary-channel.js';

/** Summing every worker's counters waits on each of them; prom-client's own bound is 5 s. */
const METRICS_TIMEOUT_MS = 6_000;

/**
 * What a cluster worker's services share with the other workers through the primary: the rate-limit
 * counters (unless Redis holds them) and GET /metrics, which any worker may answer for all.
 */
export function clusterWorkerLink(channel: PrimaryChannel): ClusterWorkerLink {
  return {
    counterStore: createPrimaryStore(channel),
    shareMetrics(registry: Registry) {
      // prom-client answers the primary's collection requests from these registries; constructing
      // an AggregatorRegistry is what installs that listener in a worker.
      AggregatorRegistry.setRegistries([registry]);
      new AggregatorRegistry();
    },
    renderMetrics: () => channel.ask({ cin: 'metrics' }, METRICS_TIMEOUT_MS),
    wakeups: wakeupRelay(),
  };
}

/** Live changes' wake-ups to and from the other workers, through the primary (one message per event-loop turn). */
function wakeupRelay(proc: NodeJS.Process = process): WakeupRelay {
  const send = batcher<Wakeup[]>((batches) => {
    const message: WakeMessage = { cin: 'wake', wakeups: batches.flat() };
    // A primary that is gone takes the worker down anyway (server.ts); a lost wake-up is recovered by the next read.
    if (proc.connected) proc.send?.(message, undefined, undefined, () => undefined);
  });
  return {
    publish: (wakeups) => send([...wakeups]),
    subscribe(listener: WakeupListener) {
      const onMessage = (message: unknown) => {
        if (isWakeMessage(message)) listener(message.wakeups);
      };
      proc.on('message', onMessage);
      return () => proc.off('message', onMessage);
    },
  };
}
