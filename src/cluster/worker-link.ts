import { AggregatorRegistry, type Registry } from 'prom-client';
import type { ClusterWorkerLink } from '../container.js';
import { createPrimaryStore } from '../modules/limits/primary-store.js';
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
  };
}
