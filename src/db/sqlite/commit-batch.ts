/** The shared transaction's book-keeping: how many units joined it, and their common outcome. */
export interface Batch {
  /** Units whose changes wait in the open transaction for its commit. */
  units: number;
  done: Promise<void>;
  settle(error?: unknown): void;
}

export function newBatch(): Batch {
  let settle!: (error?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the batch fails with whatever its commit threw
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  // A batch can fail with no unit waiting on it yet; each unit that joined awaits `done` itself.
  done.catch(() => undefined);
  return { units: 0, done, settle };
}
