import { isPrimaryReply, type RequestAnswers, type WorkerRequest } from './messages.js';

type Question = { [K in WorkerRequest['cin']]: Omit<Extract<WorkerRequest, { cin: K }>, 'id'> }[WorkerRequest['cin']];

/** A worker's line to the primary process: one request, one reply, or an error after a timeout. */
export interface PrimaryChannel {
  ask<Q extends Question>(question: Q, timeoutMs: number): Promise<RequestAnswers[Q['cin']]>;
  /** Fails every pending request; later ones fail at once. */
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

  const onMessage = (message: unknown) => {
    if (!isPrimaryReply(message)) return;
    settle(message.id, (p) => (message.error === undefined ? p.resolve(message.result) : p.reject(new Error(message.error))));
  };
  proc.on('message', onMessage);

  return {
    ask(question, timeoutMs) {
      if (closed) return Promise.reject(new Error('the channel to the primary process is closed'));
      const id = nextId;
      nextId = nextId >= Number.MAX_SAFE_INTEGER ? 1 : nextId + 1;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => settle(id, (p) => p.reject(new Error(`the primary process did not answer within ${timeoutMs} ms`))), timeoutMs);
        // A reply must not keep a worker alive that is otherwise done.
        timer.unref();
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        try {
          send({ ...question, id }, undefined, undefined, (error: Error | null) => {
            if (error) settle(id, (p) => p.reject(error));
          });
        } catch (error) {
          settle(id, (p) => p.reject(error as Error));
        }
      });
    },
    close() {
      closed = true;
      proc.off('message', onMessage);
      for (const id of [...pending.keys()]) settle(id, (p) => p.reject(new Error('the channel to the primary process is closed')));
    },
  };
}
