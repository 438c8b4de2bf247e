import type { CounterStore } from '../modules/limits/counter-store.js';
import type { PrimaryReply, WorkerRequest } from './messages.js';

export interface AnswerSources {
  /** Undefined when the counters live in Redis: workers then never ask. */
  counters: CounterStore | undefined;
  metrics(): Promise<string>;
}

/** The primary's side of the channel: one reply per request, an error reply instead of a throw. */
export function createPrimaryAnswers(sources: AnswerSources) {
  return async function answer(request: WorkerRequest, reply: (message: PrimaryReply) => void): Promise<void> {
    try {
      if (request.cin === 'counters') {
        if (!sources.counters) throw new Error('the counters live in Redis (REDIS_URL), not in the primary process');
        reply({ cin: 'reply', id: request.id, result: await sources.counters.consume(request.specs) });
      } else {
        reply({ cin: 'reply', id: request.id, result: await sources.metrics() });
      }
    } catch (error) {
      reply({ cin: 'reply', id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  };
}
