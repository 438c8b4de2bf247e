import type { CounterStore } from '../modules/limits/counter-store.js';
import { batcher, type AnswerMessage, type Answered, type AskMessage } from './messages.js';

export interface AnswerSources {
  /** Undefined when the counters live in Redis: workers then never ask. */
  counters: CounterStore | undefined;
  metrics(): Promise<string>;
}

/**
 * The primary's side of one worker's channel: every question gets one answer (an error answer
 * instead of a throw); answers ready in the same turn go back as one message. Metrics take a round
 * to every worker, so they never hold up the counter answers asked beside them.
 */
export function createPrimaryAnswers(sources: AnswerSources, reply: (message: AnswerMessage) => void) {
  const send = batcher<Answered>((answers) => reply({ cin: 'answers', answers }));
  return function answer(message: AskMessage): void {
    for (const { id, question } of message.asks) {
      const result =
        question.cin === 'counters'
          ? sources.counters
            ? sources.counters.consume(question.specs)
            : Promise.reject(new Error('the counters live in Redis (REDIS_URL), not in the primary process'))
          : sources.metrics();
      result.then(
        (value) => send({ id, result: value }),
        (error: unknown) => send({ id, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  };
}
