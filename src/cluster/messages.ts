import type { ConsumeResult, CounterSpec } from '../modules/limits/counter-store.js';

/*
 * What a worker asks the primary process over the cluster's IPC channel, and the answers. Every
 * message carries `cin` so ours never mix with other users of the channel (prom-client's own
 * metric requests travel on it too).
 */

export interface CountersRequest {
  cin: 'counters';
  id: number;
  specs: CounterSpec[];
}

export interface MetricsRequest {
  cin: 'metrics';
  id: number;
}

export type WorkerRequest = CountersRequest | MetricsRequest;

export interface PrimaryReply {
  cin: 'reply';
  id: number;
  /** ConsumeResult for counters, Prometheus text for metrics. */
  result?: ConsumeResult | string;
  error?: string;
}

export interface RequestAnswers {
  counters: ConsumeResult;
  metrics: string;
}

export function isWorkerRequest(message: unknown): message is WorkerRequest {
  if (typeof message !== 'object' || message === null) return false;
  const { cin, id } = message as { cin?: unknown; id?: unknown };
  return (cin === 'counters' || cin === 'metrics') && typeof id === 'number';
}

export function isPrimaryReply(message: unknown): message is PrimaryReply {
  if (typeof message !== 'object' || message === null) return false;
  const { cin, id } = message as { cin?: unknown; id?: unknown };
  return cin === 'reply' && typeof id === 'number';
}
