import { batcher, isAnswerMessage, type Asked, type Question, type QuestionAnswers } from './messages.js';

/** A worker's line to the primary process: one question, one answer, or an error after a timeout. */
export interface PrimaryChannel {
  ask<Q extends Question>(question: Q, timeoutMs: number): Promise<QuestionAnswers[Q['cin']]>;
  /** Fails every pending question; later ones fail at once. */
  close(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The channel of a cluster worker (process.send to the primary); throws in any other process. */
export function connectToPrimary(proc: NodeJS.Process = process): PrimaryChannel {
  const send = proc.send?.bind(proc);
  if (!send) throw new Error('not a cluster worker: no IPC channel to the primary process');
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;

  const settle = (id: number, outcome: (p: Pending) => void) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    clearTimeout(entry.timer);
    outcome(entry);
  };
  const failAll = (asks: Asked[], error: Error) => {
    for (const { id } of asks) settle(id, (p) => p.reject(error));
  };

  const enqueue = batcher<Asked>((asks) => {
    if (closed) return failAll(asks, new Error('the channel to the primary process is closed'));
    try {
      send({ cin: 'ask', asks }, undefined, undefined, (error: Error | null) => {
        if (error) failAll(asks, error);
      });
    } catch (error) {
      failAll(asks, error as Error);
    }
  });

  const onMessage = (message: unknown) => {
    if (!isAnswerMessage(message)) return;
    for (const answer of message.answers) {
      settle(answer.id, (p) => (answer.error === undefined ? p.resolve(answer.result) : p.reject(new Error(answer.error))));
    }
  };
  proc.on('message', onMessage);

  return {
    ask(question, timeoutMs) {
      if (closed) return Promise.reject(new Error('the channel to the primary process is closed'));
      const id = nextId;
      nextId = nextId >= Number.MAX_SAFE_INTEGER ? 1 : nextId + 1;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => settle(id, (p) => p.reject(new Error(`the primary process did not answer within ${timeoutMs} ms`))), timeoutMs);
        // An answer must not keep a worker alive that is otherwise done.
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        enqueue({ id, question });
      });
    },
    close() {
      closed = true;
      proc.off('message', onMessage);
      for (const id of [...pending.keys()]) settle(id, (p) => p.reject(new Error('the channel to the primary process is closed')));
    },
  };
}
