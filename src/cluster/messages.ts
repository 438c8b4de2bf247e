import type { ConsumeResult, CounterSpec } from '../modules/limits/counter-store.js';
import type { Wakeup } from '../modules/live/wakeups.js';

/*
 * What a worker asks the primary process over the cluster's IPC channel, and the answers. Both
 * sides send what is ready in one event-loop turn as one message: under load a worker asks for
 * several requests at once, and each message costs system calls and a wake-up on both sides.
 * Every message carries `cin` so ours never mix with other users of the channel (prom-client's
 * own metric requests travel on it too).
 */

export type Question = { cin: 'counters'; specs: CounterSpec[] } | { cin: 'metrics' };

export interface QuestionAnswers {
  counters: ConsumeResult;
  metrics: string;
}

export interface Asked {
  id: number;
  question: Question;
}

export interface Answered {
  id: number;
  /** ConsumeResult for counters, Prometheus text for metrics. */
  result?: ConsumeResult | string;
  error?: string;
}

export interface AskMessage {
  cin: 'ask';
  asks: Asked[];
}

export interface AnswerMessage {
  cin: 'answers';
  answers: Answered[];
}

/**
 * Live changes' commit wake-ups (SQLite only: PostgreSQL's NOTIFY reaches every worker itself). A
 * worker sends its commits' wake-ups to the primary, which passes them to every other worker.
 */
export interface WakeMessage {
  cin: 'wake';
  wakeups: Wakeup[];
}

const tagged = (message: unknown, cin: string, list: string): boolean =>
  typeof message === 'object' && message !== null && (message as { cin?: unknown }).cin === cin && Array.isArray((message as Record<string, unknown>)[list]);

export const isAskMessage = (message: unknown): message is AskMessage => tagged(message, 'ask', 'asks');
export const isWakeMessage = (message: unknown): message is WakeMessage => tagged(message, 'wake', 'wakeups');
export const isAnswerMessage = (message: unknown): message is AnswerMessage => tagged(message, 'answers', 'answers');

/**
 * Collects items and sends them as one message after the current event-loop turn (setImmediate
 * runs once the I/O callbacks of this turn, i.e. every request parsed in it, have had their go).
 */
export function batcher<T>(send: (items: T[]) => void): (item: T) => void {
  let pending: T[] = [];
  return (item) => {
    pending.push(item);
    if (pending.length > 1) return;
    setImmediate(() => {
      const items = pending;
      pending = [];
      send(items);
    });
  };
}
